import { Injectable } from '@nestjs/common';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  AppError,
  WorkSubjects as S,
  type HandsStatus,
  type HandsWorker,
  type PendingToolCall,
  type RpcParsedRequest,
} from '@agentry/contracts';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import { pendingSelfHostedCalls } from '../hands/tool-call-ledger.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { ClusterHandsReader } from './cluster-hands.reader.js';
import { WorkAccess } from './work-access.js';
import { WorkItemsRepository } from './work-items.repository.js';
import { WorkersRepository } from './workers.repository.js';

/**
 * A self-hosted worker counts as live this long after its last poll: while it serves a session it
 * heartbeats the item's lease instead of polling, so the window is wider than the queue's polling one.
 */
const SELF_HOSTED_LIVE_MS = 10 * 60_000;

/** This replica, as `/api/hands/status` names it. */
const BRAIN_INSTANCE_ID = `brain-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;

/** What the self-hosted Hands have to do (pending tool calls) and how they look (workers, queue). */
@Injectable()
export class HandsStatusService {
  constructor(
    private readonly access: WorkAccess,
    private readonly items: WorkItemsRepository,
    private readonly workers: WorkersRepository,
    private readonly sessions: SessionStateRepository,
    private readonly events: SessionEventsRepository,
    private readonly cluster: ClusterHandsReader,
  ) {}

  /** The session's self-hosted calls still waiting for a worker; the session must run on the principal's environment. */
  async pendingTools(req: RpcParsedRequest<typeof S.pendingTools>): Promise<{ data: PendingToolCall[] }> {
    const { principal, sessionId } = req;
    const scope = await this.access.environment(principal);
    const session = await this.sessions.findForTenant(sessionId, principal.tenantId, principal.namespaceId);
    const own = principal.sessionId === null || principal.sessionId === sessionId;
    if (!session || session.environmentId !== scope.environmentId || !own)
      throw new AppError('NOT_FOUND', `Session ${sessionId} not found`);
    const log = (await this.events.all(sessionId)).map(toStoredEvent);
    return { data: pendingSelfHostedCalls(log) };
  }

  async status(req: RpcParsedRequest<typeof S.handsStatus>): Promise<HandsStatus> {
    const [pendingWorkItems, workerHeartbeats, cluster, selfHosted] = await Promise.all([
      this.items.waitingInNamespace(req.tenantId, req.namespaceId),
      this.workers.lastSeenInNamespace(req.tenantId, req.namespaceId),
      this.cluster.live(req.tenantId, req.namespaceId),
      this.workers.seenInNamespace(req.tenantId, req.namespaceId, SELF_HOSTED_LIVE_MS),
    ]);
    const workers: HandsWorker[] = [
      ...cluster,
      ...selfHosted.map((w) => ({
        kind: 'self_hosted' as const,
        workerId: w.workerId,
        lastHeartbeatAt: w.lastSeenAt,
        environmentId: w.environmentId,
        capacity: null,
        runningCalls: null,
        liveSandboxes: null,
      })),
    ];
    return { brainInstanceId: BRAIN_INSTANCE_ID, pendingWorkItems, workerHeartbeats, workers };
  }
}
