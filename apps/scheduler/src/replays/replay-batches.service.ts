import { Injectable } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateReplayBatchRequest,
  type Replay,
  type ReplayBatch,
  type Session,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { summarize } from './replay-comparison.js';
import { REPLAY_OF_KEY } from './replay-session.js';
import { SessionReplaysRepository } from './session-replays.repository.js';
import { SessionReplaysService, assertCanWrite } from './session-replays.service.js';

/** Sessions of the agent looked at to find its last N that ended idle (replays themselves are skipped). */
const LOOK_AT = 100;

/** An agent's last sessions replayed against one version, each as a replay of its own. */
@Injectable()
export class ReplayBatchesService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly replays: SessionReplaysRepository,
    private readonly single: SessionReplaysService,
  ) {}

  async start(actor: Actor, agentId: string, body: CreateReplayBatchRequest): Promise<ReplayBatch> {
    assertCanWrite(actor);
    await this.single.requireVersion(actor, agentId, body.version);
    const page = await this.rpc.request(ControlSubjects.listSessions, {
      actor,
      query: { agent_id: agentId, statuses: ['idle'], limit: LOOK_AT, order: 'desc' },
    });
    const sessions = page.data.filter(endedIdle).slice(0, body.last);
    const batch = await this.replays.createBatch({
      id: newId(ID_PREFIXES.sessionReplayBatch),
      actor,
      agentId,
      agentVersion: body.version,
    });
    for (const session of sessions)
      await this.single.record(actor, session.id, { id: agentId, version: body.version }, batch.id);
    return this.get(actor, batch.id);
  }

  async get(actor: Actor, id: string): Promise<ReplayBatch> {
    const batch = await this.replays.findBatchForActor(actor, id);
    if (!batch) throw new AppError('NOT_FOUND', `Replay batch ${id} not found`);
    const replays = await this.replays.batchReplays(id);
    const count = (status: Replay['status']) => replays.filter((r) => r.status === status).length;
    const verdicts = replays.flatMap((r) => r.comparison?.turns.map((t) => t.verdict) ?? []);
    return {
      type: 'session_replay_batch',
      id: batch.id,
      agent: { id: batch.agentId, version: batch.agentVersion },
      status: count('running') > 0 ? 'running' : 'completed',
      replays,
      summary: {
        replays: replays.length,
        running: count('running'),
        completed: count('completed'),
        failed: count('failed'),
        turns: summarize(verdicts),
      },
      created_at: batch.createdAt.toISOString(),
    };
  }
}

/** Idle after a finished turn (not waiting on a confirmation), and not itself a replay. */
function endedIdle(session: Session): boolean {
  return (
    session.status === 'idle' &&
    session.stop_reason?.type !== 'requires_action' &&
    !(REPLAY_OF_KEY in session.metadata)
  );
}
