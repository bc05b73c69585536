import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AppError,
  WorkSubjects,
  type RpcRequest,
  type Work,
  type WorkHeartbeat,
  type WorkPrincipal,
} from '@agentry/contracts';
import { CLOCK, RpcClient, type Clock } from '@agentry/platform';

/** The dataplane blocks one poll for at most this long; longer waits are several polls. */
const MAX_BLOCK_MS = 1_000;

type PrincipalInput = RpcRequest<typeof WorkSubjects.get>['principal'];

/** The SDK turns a 412 carrying this code into `BetaHeartbeatPreconditionFailedError`. */
const HEARTBEAT_PRECONDITION_FAILED = 'heartbeat_precondition_failed';

/**
 * The gateway's side of the work queue, shared by `/v1` and `/api`: polling (short or long) and
 * heartbeats whose 412 always carries what the SDK worker reads from it.
 */
@Injectable()
export class WorkQueueService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A page of the environment's work items, optionally in one state. */
  list(
    principal: WorkPrincipal,
    query: { limit: number; page?: string | null; state?: RpcRequest<typeof WorkSubjects.list>['state'] },
  ) {
    return this.rpc.request(WorkSubjects.list, {
      principal,
      limit: query.limit,
      ...(query.page ? { page: query.page } : {}),
      ...(query.state ? { state: query.state } : {}),
    });
  }

  /** One claim attempt that waits up to `blockMs` (≤ 1 s) for work. */
  async pollOnce(
    principal: WorkPrincipal,
    workerId: string,
    blockMs: number,
    reclaimOlderThanMs?: number,
  ): Promise<Work | null> {
    const request: RpcRequest<typeof WorkSubjects.poll> = {
      principal,
      workerId,
      blockMs: Math.min(Math.max(0, blockMs), MAX_BLOCK_MS),
    };
    if (reclaimOlderThanMs !== undefined) request.reclaimOlderThanMs = reclaimOlderThanMs;
    const { work } = await this.rpc.request(WorkSubjects.poll, request);
    return work;
  }

  /**
   * Repeated ≤ 1 s polls until work arrives, `timeoutMs` passes or the caller goes away. A poll that
   * comes back early and empty is padded, so a waiting worker costs at most one request a second.
   */
  async longPoll(
    principal: WorkPrincipal,
    workerId: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<Work | null> {
    const deadline = this.clock.nowMs() + timeoutMs;
    for (;;) {
      const started = this.clock.nowMs();
      const blockMs = Math.min(MAX_BLOCK_MS, Math.max(0, deadline - started));
      const work = await this.pollOnce(principal, workerId, blockMs);
      if (work) return work;
      const left = deadline - this.clock.nowMs();
      if (left <= 0 || signal.aborted) return null;
      const pad = Math.min(left, blockMs - (this.clock.nowMs() - started));
      if (pad > 0) await sleep(pad, undefined, { signal }).catch(() => undefined);
      if (signal.aborted || this.clock.nowMs() >= deadline) return null;
    }
  }

  async heartbeat(request: RpcRequest<typeof WorkSubjects.heartbeat>): Promise<WorkHeartbeat> {
    try {
      return await this.rpc.request(WorkSubjects.heartbeat, request);
    } catch (error) {
      if (!AppError.is(error, 'PRECONDITION_FAILED')) throw error;
      throw await this.withLeaseDetails(error, request.principal, request.workId);
    }
  }

  /** A 412 with `details.error_code` and `details.current_state` (the server's view of the lease). */
  private async withLeaseDetails(
    error: AppError,
    principal: PrincipalInput,
    workId: string,
  ): Promise<AppError> {
    const details = error.details ?? {};
    const currentState = details.current_state ?? (await this.currentState(principal, workId));
    return new AppError('PRECONDITION_FAILED', error.message, {
      cause: error,
      details: { ...details, error_code: HEARTBEAT_PRECONDITION_FAILED, current_state: currentState },
    });
  }

  private async currentState(principal: PrincipalInput, workId: string): Promise<Record<string, unknown>> {
    const work = await this.rpc.request(WorkSubjects.get, { principal, workId }).catch(() => null);
    return work ? { state: work.state, last_heartbeat: work.latest_heartbeat_at } : {};
  }
}
