import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  ID_PREFIXES,
  Jobs,
  decodeIdCursor,
  encodeCursor,
  newId,
  type Actor,
  type CreateReplayRequest,
  type ListReplaysParams,
  type Page,
  type Replay,
} from '@agentry/contracts';
import { CLOCK, JobQueue, RpcClient, type Clock } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { SessionReplaysRepository } from './session-replays.repository.js';

/**
 * Session replays as durable jobs: a replay is checked, recorded and queued at once, and answered from its
 * row. A session, agent or version the caller cannot see is a 404 before anything exists.
 */
@Injectable()
export class SessionReplaysService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly replays: SessionReplaysRepository,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(actor: Actor, sessionId: string, body: CreateReplayRequest): Promise<Replay> {
    assertCanWrite(actor);
    const source = await this.rpc.request(ControlSubjects.getSession, { actor, id: sessionId });
    await this.requireVersion(actor, body.agent.id, body.agent.version);
    if (source.status === 'running' || source.status === 'rescheduling') {
      throw new AppError('CONFLICT', `Session ${sessionId} has a turn running; replay it once it is idle`);
    }
    return this.record(actor, sessionId, body.agent);
  }

  /** Records a replay of `sessionId` and queues it. */
  async record(
    actor: Actor,
    sessionId: string,
    agent: { id: string; version: number },
    batchId?: string,
  ): Promise<Replay> {
    const { replay } = await this.replays.create({
      id: newId(ID_PREFIXES.sessionReplay),
      actor,
      sourceSessionId: sessionId,
      agentId: agent.id,
      agentVersion: agent.version,
      ...(batchId ? { batchId } : {}),
      deadlineAt: new Date(this.clock.nowMs() + this.config.AGENTRY_REPLAY_DEADLINE_MS),
    });
    await this.jobs.enqueue(Jobs.sessionReplay, { replayId: replay.id, tenantId: actor.tenantId });
    return replay;
  }

  async get(actor: Actor, id: string): Promise<Replay> {
    const replay = await this.replays.findForActor(actor, id);
    if (!replay) throw new AppError('NOT_FOUND', `Replay ${id} not found`);
    return replay;
  }

  async list(actor: Actor, query: ListReplaysParams): Promise<Page<Replay>> {
    const afterId = decodeIdCursor(query.page, ID_PREFIXES.sessionReplay);
    const rows = await this.replays.list(actor, {
      ...(query.session_id ? { sourceSessionId: query.session_id } : {}),
      ...(query.batch_id ? { batchId: query.batch_id } : {}),
      ...(afterId ? { afterId } : {}),
      limit: query.limit + 1,
    });
    const data = rows.slice(0, query.limit);
    return { data, next_page: rows.length > query.limit ? encodeCursor(data.at(-1)!.id) : null };
  }

  /** Agent `agentId` at `version`, or a 404 naming which of the two is unknown. */
  async requireVersion(actor: Actor, agentId: string, version: number): Promise<void> {
    await this.rpc.request(ControlSubjects.getAgent, { actor, id: agentId, query: { version } });
  }
}

export function assertCanWrite(actor: Actor): void {
  if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
}
