import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  DataplaneSubjects,
  type Actor,
  type MultiagentRunReply,
  type MultiagentRunResult,
  type MultiagentRunRpcRequest,
  type SessionEvent,
} from '@agentry/contracts';
import { NatsBus, RpcClient } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { SessionSettleWatch, type SettledStatus } from './session-settle.watch.js';

/**
 * Multi-agent fan-out: one session per agent, the same message to each, and each final reply. Every
 * agent and the environment are checked first, so an id the caller cannot see fails the whole request
 * with 404 before any session exists.
 */
@Injectable()
export class MultiagentRunService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly bus: NatsBus,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
  ) {}

  async run(req: MultiagentRunRpcRequest): Promise<MultiagentRunReply> {
    const { actor } = req;
    // Refused as a whole, like any write: not one "may only read" error per agent in a 200.
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    for (const id of new Set(req.agent_ids)) await this.rpc.request(ControlSubjects.getAgent, { actor, id, query: {} });
    await this.rpc.request(ControlSubjects.getEnvironment, { actor, id: req.environment_id });
    const deadline = Date.now() + req.timeout_ms;
    const width = req.parallel ? this.config.AGENTRY_MULTIAGENT_PARALLELISM : 1;
    const results = await mapBounded(req.agent_ids, width, (agentId) => this.runOne(actor, agentId, req, deadline));
    return { results };
  }

  private async runOne(actor: Actor, agentId: string, req: MultiagentRunRpcRequest, deadline: number): Promise<MultiagentRunResult> {
    let sessionId: string | null = null;
    try {
      sessionId = (await this.rpc.request(ControlSubjects.createSession, { actor, body: { agent: agentId, environment_id: req.environment_id } })).id;
      const watch = await SessionSettleWatch.open(this.bus, sessionId);
      try {
        await this.rpc.request(DataplaneSubjects.appendEvents, {
          actor,
          sessionId,
          events: [{ type: 'user.message', content: [{ type: 'text', text: req.message }] }],
        });
        // The log decides when a live status event was lost on the way.
        const status = (await watch.settledWithin(deadline - Date.now())) ?? (await this.settledInLog(actor, sessionId));
        const reply = await this.lastReply(actor, sessionId);
        if (!status) return { agent_id: agentId, session_id: sessionId, status: 'timeout', reply, error: 'The session did not finish in time' };
        return { agent_id: agentId, session_id: sessionId, status, reply, error: null };
      } finally {
        watch.close();
      }
    } catch (err) {
      return { agent_id: agentId, session_id: sessionId, status: 'error', reply: null, error: err instanceof Error ? err.message : String(err) };
    }
  }

  private async settledInLog(actor: Actor, sessionId: string): Promise<SettledStatus | null> {
    const types = ['session.status_running', 'session.status_idle', 'session.status_terminated'];
    const page = await this.rpc.request(DataplaneSubjects.listEvents, { actor, sessionId, types, order: 'desc', limit: 1 });
    const last = page.data[0]?.event.type;
    return last === 'session.status_idle' ? 'idle' : last === 'session.status_terminated' ? 'terminated' : null;
  }

  private async lastReply(actor: Actor, sessionId: string): Promise<string | null> {
    const page = await this.rpc.request(DataplaneSubjects.listEvents, { actor, sessionId, types: ['agent.message'], order: 'desc', limit: 1 });
    const event = page.data[0]?.event as Extract<SessionEvent, { type: 'agent.message' }> | undefined;
    if (!event) return null;
    return event.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  }
}

/** Maps in order with at most `width` calls in flight. */
async function mapBounded<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}
