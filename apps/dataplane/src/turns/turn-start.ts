import { Injectable } from '@nestjs/common';
import { platformMetrics } from '@agentry/platform';
import type { LeasedTurn } from '../drain/session-drain.js';
import { SessionInterrupts } from '../drain/session-interrupts.js';
import { OutcomeLoop } from '../outcomes/outcome-loop.js';
import { threadLinkOf } from '../threads/thread-spec.js';
import { ThreadTurns } from '../threads/thread-turns.js';
import { WorkQueue } from '../work/work-queue.service.js';
import type { Admission } from './turn-admission.js';
import { TurnAbort } from './turn-abort.js';
import { rescheduleHere } from './turn-takeover.js';
import type { SessionSpec, Turn } from './turn.js';

/**
 * The pipeline's second stage: the status write that starts the turn (`idle → running`, or for a turn a
 * crash cut off `running → rescheduling → running`), consuming its input in the same statement. Input
 * committed after the lease was taken refuses the start (the drain's next round takes it with the rest),
 * so a turn answers exactly the input it consumes. A plain turn's start is written by its first write
 * instead (before its first model call), with the same check. Then what else starts with a turn: a
 * thread's status on its session, a self-hosted session's work item, the outcome being worked on.
 */
@Injectable()
export class TurnStart {
  constructor(
    private readonly interrupts: SessionInterrupts,
    private readonly threads: ThreadTurns,
    private readonly work: WorkQueue,
    private readonly outcomes: OutcomeLoop,
  ) {}

  /** The started turn, or undefined when the start was refused (nothing was written). */
  async begin(leased: LeasedTurn, admitted: Extract<Admission, { kind: 'turn' }>): Promise<Turn | undefined> {
    const { session, writer, logEndsAt } = leased;
    // Listening before the start is written: an interrupt appended from then on is heard by the turn.
    const abort = new TurnAbort(this.interrupts, session.id, leased.leaseLost);
    if (admitted.interrupted) abort.interruptNow();
    const consumed = admitted.input.map((e) => e.event.id);
    const spec = session.spec as SessionSpec;
    const turn: Turn = {
      ...leased,
      spec,
      input: admitted.input,
      resumed: admitted.resumed,
      selfHosted: spec.environment.type === 'self_hosted',
      abort,
    };
    const running = { type: 'session.status_running' };
    let started = true;
    if (logEndsAt !== undefined && startsAlone(turn))
      writer.startWithFirstWrite(['idle'], 'running', running, consumed, logEndsAt);
    else if (admitted.resumed) started = await rescheduleHere(writer, session.status, consumed, logEndsAt);
    else started = await writer.start(['idle'], 'running', running, consumed, logEndsAt);
    if (!started) {
      abort.dispose();
      return undefined;
    }
    await this.alongside(turn).catch((error: unknown) => {
      abort.dispose();
      throw error;
    });
    return turn;
  }

  private async alongside(turn: Turn): Promise<void> {
    if (turn.resumed) platformMetrics().leaseTakeovers.add(1);
    await this.threads.started(turn.session, turn.resumed);
    if (turn.selfHosted) await this.work.ensureOpen(selfHostedSession(turn));
    await this.outcomes.begin(turn.writer.lease, turn.input);
  }
}

/**
 * A turn whose start has nothing beside it (a fresh turn of a session of its own, on the platform's Hands,
 * opening no outcome): its start can wait for its first write (`TurnWriter.startWithFirstWrite`).
 * A resumed turn, a thread's (its status goes to its session too), a self-hosted one (its work item opens
 * as it starts) and one opening an outcome write their start at once.
 */
function startsAlone(turn: Turn): boolean {
  return (
    !turn.resumed &&
    !turn.selfHosted &&
    threadLinkOf(turn.spec) === undefined &&
    !turn.input.some((e) => e.event.type === 'user.define_outcome')
  );
}

export function selfHostedSession({ session }: Turn) {
  return { tenantId: session.tenantId, environmentId: session.environmentId, sessionId: session.id };
}
