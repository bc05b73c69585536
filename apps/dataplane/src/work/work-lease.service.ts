import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  encodeWorkSecret,
  NO_HEARTBEAT,
  WorkSubjects as S,
  type RpcParsedRequest,
  type Work,
  type WorkHeartbeat,
} from '@agentry/contracts';
import type { WorkItem } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { hashSessionsToken, mintSessionsToken } from './sessions-token.js';
import { WorkAccess } from './work-access.js';
import { toWork } from './work-item.mapper.js';
import { WorkItemsRepository, type EnvScope } from './work-items.repository.js';
import { WorkQueue } from './work-queue.service.js';
import { WorkWakeups } from './work-wakeups.js';
import { WorkersRepository } from './workers.repository.js';

/** A long poll re-tries its claim at least this often, in case a wake-up was lost (NATS is at-most-once). */
const POLL_RETRY_MS = 250;

/** The worker side of a work item's life: claim (poll), ack, heartbeat (lease compare-and-set), stop. */
@Injectable()
export class WorkLeaseService {
  constructor(
    private readonly items: WorkItemsRepository,
    private readonly workers: WorkersRepository,
    private readonly access: WorkAccess,
    private readonly wakeups: WorkWakeups,
    private readonly queue: WorkQueue,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Claims the oldest claimable item, waiting up to blockMs; the reply carries the item's only copy of its secret. */
  async poll(req: RpcParsedRequest<typeof S.poll>): Promise<{ work: Work | null }> {
    this.access.environmentKeyOnly(req.principal, 'poll for work');
    const scope = await this.access.environment(req.principal);
    await this.workers.touch(scope.tenantId, scope.environmentId, req.workerId);
    const deadline = this.clock.nowMs() + req.blockMs;
    for (;;) {
      const token = mintSessionsToken();
      const row = await this.items.claim(scope, {
        workerId: req.workerId,
        secretHash: hashSessionsToken(token),
        ttlSeconds: this.config.AGENTRY_WORK_LEASE_TTL_SECONDS,
        reclaimUnackedMs: req.reclaimOlderThanMs ?? this.config.AGENTRY_WORK_RECLAIM_UNACKED_MS,
      });
      if (row) return { work: toWork(row, encodeWorkSecret({ sessions_token: token })) };
      const left = deadline - this.clock.nowMs();
      if (left <= 0) return { work: null };
      await this.wakeups.wait(scope.environmentId, Math.min(left, POLL_RETRY_MS));
    }
  }

  async ack(req: RpcParsedRequest<typeof S.ack>): Promise<Work> {
    const scope = await this.access.item(req.principal, req.workId);
    const row = await this.items.ack(scope, req.workId, { workerId: req.workerId, workDir: req.workDir });
    if (row) return toWork(row);
    const current = await this.access.existing(scope, req.workId);
    throw new AppError(
      'CONFLICT',
      `Work ${req.workId} is ${current.state} and cannot be acknowledged; poll for work again`,
    );
  }

  /**
   * Extends the lease if `expected_last_heartbeat` still matches (the first beat sends NO_HEARTBEAT).
   * A mismatch is PRECONDITION_FAILED with the lease as stored, so a worker that lost it stops serving.
   */
  async heartbeat(req: RpcParsedRequest<typeof S.heartbeat>): Promise<WorkHeartbeat> {
    const scope = await this.access.item(req.principal, req.workId);
    const expected = req.expectedLastHeartbeat;
    const row = await this.items.heartbeat(scope, req.workId, {
      compare: expected !== undefined,
      expected: expected === NO_HEARTBEAT ? null : (expected ?? null),
      ttlSeconds: req.desiredTtlSeconds,
    });
    if (row) return beat(row, row.lastHeartbeat ?? '', true);
    const current = await this.access.existing(scope, req.workId);
    if (current.state === 'stopped')
      return beat(current, current.lastHeartbeat ?? current.stoppedAt?.toISOString() ?? '', false);
    throw new AppError(
      'PRECONDITION_FAILED',
      current.state === 'queued'
        ? `Work ${req.workId} is queued and leased to no one; claim it with a poll first`
        : `expected_last_heartbeat ${expected} does not match the last heartbeat of work ${req.workId}; another worker may hold the lease`,
      {
        details: {
          error_code: 'heartbeat_precondition_failed',
          current_state: {
            state: current.state,
            ttl_seconds: current.ttlSeconds,
            last_heartbeat: current.lastHeartbeat,
            lease_extended: false,
          },
        },
      },
    );
  }

  /** `force` stops at once; otherwise the holder is asked to stop (`stopping`). Stopping a stopped item is a CONFLICT. */
  async stop(req: RpcParsedRequest<typeof S.stop>): Promise<Work> {
    const scope = await this.access.item(req.principal, req.workId);
    const row = await this.items.stop(scope, req.workId, req.force === true);
    if (!row) throw await this.alreadyStopped(scope, req.workId);
    if (row.state === 'stopped') await this.queue.requeueIfStillNeeded(row);
    return toWork(row);
  }

  private async alreadyStopped(scope: EnvScope, workId: string): Promise<AppError> {
    await this.access.existing(scope, workId);
    return new AppError('CONFLICT', `Work ${workId} is already stopped`);
  }
}

function beat(row: WorkItem, lastHeartbeat: string, extended: boolean): WorkHeartbeat {
  return {
    type: 'work_heartbeat',
    state: row.state,
    last_heartbeat: lastHeartbeat,
    lease_extended: extended,
    ttl_seconds: row.ttlSeconds,
  };
}
