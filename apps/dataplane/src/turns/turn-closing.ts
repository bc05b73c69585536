import { Inject, Injectable } from '@nestjs/common';
import { AppError, ID_PREFIXES, newId, type StopReason } from '@agentry/contracts';
import { isDatabaseUnavailable } from '@agentry/db';
import { isTransientOutage, type RunEndEvent } from '@agentry/harness';
import { LOGGER, type Logger } from '@agentry/platform';
import type { TurnBudget } from '../budgets/turn-budget.js';
import { TurnCheckpoints } from '../checkpoints/turn-checkpoints.js';
import { ThreadTurns } from '../threads/thread-turns.js';
import { WorkQueue } from '../work/work-queue.service.js';
import { toStopReason } from '../agent-harness/harness-event.mapper.js';
import { turnFailureEvent } from './turn-failure.js';
import { selfHostedSession } from './turn-start.js';
import type { Turn } from './turn.js';

/**
 * The pipeline's last stage: the turn's closing write. What it still has to say (the run's error, a budget
 * stop, the `session.usage` snapshot, a thread's answer to its session) and `running → idle` with its stop
 * reason go in one statement that also lets the lease go. A failed run ends the same way, as
 * `retries_exhausted`; a lost lease or a storage outage leaves the turn to be resumed from its log.
 */
@Injectable()
export class TurnClosing {
  constructor(
    private readonly threads: ThreadTurns,
    private readonly work: WorkQueue,
    private readonly checkpoints: TurnCheckpoints,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async close(turn: Turn, budget: TurnBudget, end: RunEndEvent | undefined): Promise<void> {
    if (!end) throw new AppError('INTERNAL', 'harness ended without run.end');
    const { stopReason, error } = toStopReason(end);
    // The item may have stopped while the turn ran (an idle worker leaving); suspended calls need one open.
    if (turn.selfHosted && stopReason.type === 'requires_action')
      await this.work.ensureOpen(selfHostedSession(turn));
    if (error) await turn.writer.emit(error);
    for (const closing of budget.closingEvents(stopReason)) await turn.writer.emit(closing);
    await this.idle(turn, stopReason);
  }

  /** Rethrows what is not the turn's failure: a lost lease, storage away for now. */
  async fail(turn: Turn, error: unknown): Promise<void> {
    if (turn.leaseLost.aborted || AppError.is(error, 'CONFLICT'))
      throw new AppError('CONFLICT', 'turn lease lost');
    // Storage away for now: left mid-turn, the turn is resumed from its log (drain retry or reconciler), not
    // ended. That includes the event log's own writes failing because Postgres is shutting down or gone.
    if (isTransientOutage(error) || isDatabaseUnavailable(error)) throw error;
    this.logger.error({ sessionId: turn.session.id, err: error }, 'turn failed');
    await turn.writer.emit(turnFailureEvent(error));
    await this.idle(turn, { type: 'retries_exhausted' });
  }

  private async idle(turn: Turn, stopReason: StopReason): Promise<void> {
    await this.threads.finishing(turn.session, turn.writer, stopReason);
    const idleId = newId(ID_PREFIXES.sessionEvent);
    const idle = { id: idleId, type: 'session.status_idle', stop_reason: stopReason };
    const options = { stopReason, consume: turn.abort.interruptsHeard, release: true };
    const withClosing = this.checkpoints.withClosing(turn);
    if (withClosing) {
      const outcome = await turn.writer.finishWithCheckpoint(['running'], 'idle', idle, options, withClosing);
      return this.checkpoints.closed(turn, outcome, idleId);
    }
    const checkpoint = await this.checkpoints.take(turn);
    const closed = await turn.writer.finish(['running'], 'idle', idle, options);
    await this.checkpoints.seal(turn, checkpoint, closed ? idleId : null);
  }
}
