import { Inject, Injectable } from '@nestjs/common';
import {
  ControlSubjects,
  DataplaneSubjects,
  type Actor,
  type MultiagentRunEntry,
  type SessionEvent,
} from '@agentry/contracts';
import { CLOCK, NatsBus, RpcClient, type Clock } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { MultiagentRunsRepository, type StoredRun } from './multiagent-runs.repository.js';
import { RunChanges } from './run-changes.js';
import { SessionSettleWatch, type SettledStatus } from './session-settle.watch.js';

const SETTLED = new Set<MultiagentRunEntry['status']>(['idle', 'terminated', 'timeout', 'error']);

/**
 * Carries a run to completion, and picks one up again after a crash: an entry records its session the
 * moment it exists, a message is sent only to a session that has none, and settled entries are kept.
 */
@Injectable()
export class MultiagentRunExecutor {
  constructor(
    private readonly rpc: RpcClient,
    private readonly bus: NatsBus,
    private readonly runs: MultiagentRunsRepository,
    private readonly changes: RunChanges,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(runId: string): Promise<void> {
    const stored = await this.runs.find(runId);
    if (!stored || stored.run.status === 'completed') return;
    await this.runs.markRunning(runId);
    await this.announce(runId);
    const open = stored.run.results.flatMap((entry, index) => (SETTLED.has(entry.status) ? [] : [index]));
    const width = stored.run.parallel ? this.config.AGENTRY_MULTIAGENT_PARALLELISM : 1;
    await mapBounded(open, width, (index) => this.runEntry(stored, index));
    await this.runs.complete(runId);
    await this.announce(runId);
  }

  private async runEntry(stored: StoredRun, index: number): Promise<void> {
    const { run, actor } = stored;
    const entry = { ...run.results[index]! };
    const deadline = Date.parse(run.deadline_at);
    try {
      if (!entry.session_id) {
        const body = { agent: entry.agent_id, environment_id: run.environment_id };
        entry.session_id = (await this.rpc.request(ControlSubjects.createSession, { actor, body })).id;
        entry.status = 'running';
        await this.save(run.id, index, entry);
      }
      const sessionId = entry.session_id;
      const watch = await SessionSettleWatch.open(this.bus, sessionId);
      try {
        const messageSeq =
          (await this.messageSeq(actor, sessionId)) ??
          (await this.sendMessage(actor, sessionId, run.message));
        // The log decides when the turn ended before a restart, or its live status event was lost.
        const status =
          (await this.settledAfter(actor, sessionId, messageSeq)) ??
          (await watch.settledWithin(deadline - this.clock.nowMs())) ??
          (await this.settledAfter(actor, sessionId, messageSeq));
        entry.reply = await this.lastReply(actor, sessionId);
        entry.status = status ?? 'timeout';
        entry.error = status ? null : 'The session did not finish in time';
      } finally {
        watch.close();
      }
    } catch (error) {
      entry.status = 'error';
      entry.error = error instanceof Error ? error.message : String(error);
    }
    await this.save(run.id, index, entry);
  }

  private async save(runId: string, index: number, entry: MultiagentRunEntry): Promise<void> {
    await this.runs.saveEntry(runId, index, entry);
    await this.announce(runId);
  }

  private async announce(runId: string): Promise<void> {
    const stored = await this.runs.find(runId);
    if (stored) this.changes.announce(stored.run);
  }

  /** The seq of the run's message in the session, if it was sent before (a resumed run). */
  private async messageSeq(actor: Actor, sessionId: string): Promise<number | null> {
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      types: ['user.message'],
      order: 'asc',
      limit: 1,
    });
    return page.data[0]?.seq ?? null;
  }

  private async sendMessage(actor: Actor, sessionId: string, text: string): Promise<number> {
    const events = [{ type: 'user.message' as const, content: [{ type: 'text' as const, text }] }];
    const sent = await this.rpc.request(DataplaneSubjects.appendEvents, { actor, sessionId, events });
    return sent.data[0]!.seq;
  }

  /** Idle or terminated after the message: the turn it started has ended. */
  private async settledAfter(
    actor: Actor,
    sessionId: string,
    messageSeq: number,
  ): Promise<SettledStatus | null> {
    const types = ['session.status_running', 'session.status_idle', 'session.status_terminated'];
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      types,
      order: 'desc',
      limit: 1,
    });
    const last = page.data[0];
    if (!last || last.seq < messageSeq) return null;
    return last.event.type === 'session.status_idle'
      ? 'idle'
      : last.event.type === 'session.status_terminated'
        ? 'terminated'
        : null;
  }

  private async lastReply(actor: Actor, sessionId: string): Promise<string | null> {
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      types: ['agent.message'],
      order: 'desc',
      limit: 1,
    });
    const event = page.data[0]?.event as Extract<SessionEvent, { type: 'agent.message' }> | undefined;
    if (!event) return null;
    return event.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  }
}

/** Maps with at most `width` calls in flight. */
async function mapBounded<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}
