import { Inject, Injectable } from '@nestjs/common';
import {
  ControlSubjects,
  type Actor,
  type InboundEvent,
  type UserMessageEventParams,
} from '@agentry/contracts';
import { CLOCK, NatsBus, RpcClient, type Clock } from '@agentry/platform';
import { SessionSettleWatch } from '../multiagent/session-settle.watch.js';
import { compareTurns } from './replay-comparison.js';
import { answersFor } from './recorded-answers.js';
import { splitTurns, turnState, type RecordedTurn } from './recorded-turns.js';
import { appendOnce, createReplaySession, readLog, replaySessionRequest } from './replay-session.js';
import { SessionReplaysRepository, type StoredReplay } from './session-replays.repository.js';

/** The log is read again at least this often while a turn runs, should its status event be missed. */
const RECHECK_MS = 5_000;

/**
 * Carries a replay to its end, and picks one up again after a crash: the replay session is recorded the
 * moment it exists, each input is appended under a key of its own (a repeat appends nothing), and what
 * to do next is read from the replay session's log, never from memory.
 */
@Injectable()
export class ReplayExecutor {
  constructor(
    private readonly rpc: RpcClient,
    private readonly bus: NatsBus,
    private readonly replays: SessionReplaysRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(replayId: string): Promise<void> {
    const stored = await this.replays.find(replayId);
    if (!stored || stored.replay.status !== 'running') return;
    try {
      await this.run(stored);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.replays.finish(replayId, 'failed', { error: reason });
    }
  }

  private async run({ replay, actor, deadlineAt }: StoredReplay): Promise<void> {
    const deadline = deadlineAt.getTime();
    if (this.clock.nowMs() >= deadline) throw new Error('The replay did not finish before its deadline');
    const original = splitTurns(await readLog(this.rpc, actor, replay.source_session_id));
    const sessionId = replay.replay_session_id ?? (await this.openSession(actor, replay.id));
    for (let index = 0; index < original.length; index++) {
      const ended = await this.driveTurn(actor, replay.id, sessionId, original[index]!, index, deadline);
      // A call the original never answered leaves the replay waiting: the turns after it cannot run.
      if (!ended) break;
      // Progress: the turns replayed so far, compared, readable while the replay runs.
      const sofar = splitTurns(await readLog(this.rpc, actor, sessionId));
      await this.replays.saveProgress(replay.id, compareTurns(original.slice(0, index + 1), sofar));
    }
    const replayed = splitTurns(await readLog(this.rpc, actor, sessionId));
    await this.replays.finish(replay.id, 'completed', { comparison: compareTurns(original, replayed) });
  }

  private async openSession(actor: Actor, replayId: string): Promise<string> {
    const stored = (await this.replays.find(replayId))!;
    const { replay } = stored;
    const source = await this.rpc.request(ControlSubjects.getSession, {
      actor,
      id: replay.source_session_id,
    });
    const body = replaySessionRequest(source, replay.id, replay.agent);
    await this.replays.setReplaySession(replay.id, await createReplaySession(this.rpc, actor, body));
    // Whichever run recorded its session first wins; the replay goes on in that one.
    return (await this.replays.find(replayId))!.replay.replay_session_id!;
  }

  /** Sends turn `index`'s inputs and waits for it to end; false when it waits on an input never recorded. */
  private async driveTurn(
    actor: Actor,
    replayId: string,
    sessionId: string,
    original: RecordedTurn,
    index: number,
    deadline: number,
  ): Promise<boolean> {
    for (;;) {
      // Subscribed before the log is read: a turn that ends in between is seen by one or the other.
      const watch = await SessionSettleWatch.open(this.bus, sessionId);
      try {
        const turn = splitTurns(await readLog(this.rpc, actor, sessionId))[index];
        if (!turn) {
          const message = original.message.event as unknown as UserMessageEventParams;
          const event = { type: 'user.message', content: message.content } as InboundEvent;
          await appendOnce(this.rpc, actor, sessionId, `${replayId}:message:${index}`, [event]);
          continue;
        }
        const state = turnState(turn);
        if (state.kind === 'ended') return true;
        if (state.kind === 'requires_action') {
          const answers = answersFor(original, turn, state.eventIds);
          if (!answers) return false;
          const step = `${replayId}:answers:${index}:${state.eventIds.join(',')}`;
          await appendOnce(this.rpc, actor, sessionId, step, answers);
          continue;
        }
        const remaining = deadline - this.clock.nowMs();
        if (remaining <= 0)
          throw new Error(`The replay did not finish before its deadline (turn ${index + 1})`);
        await watch.settledWithin(Math.min(remaining, RECHECK_MS));
      } finally {
        watch.close();
      }
    }
  }
}
