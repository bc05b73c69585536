import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type ModelUsage,
  type OutcomeVerdict,
  type StoredEvent,
} from '@agentry/contracts';
import type { ChatMessage, ModelPort } from '@agentry/harness';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { cancelCause } from '../hands/hands-cancel.js';
import type { Lease } from '../sessions/session-state.repository.js';
import type { TurnWriter } from '../sessions/turn-writer.js';
import { pendingRecord } from './outcome-definitions.js';
import { OutcomeEvaluationsRepository } from './outcome-evaluations.repository.js';
import { gradeOutcome, type Grade } from './outcome-grader.js';
import { isOpen, settleVerdict, type OutcomeRecord } from './outcome-record.js';

/** How often `span.outcome_evaluation_ongoing` says the grader is still at work. */
const HEARTBEAT_MS = 5_000;

const NO_USAGE: ModelUsage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export interface Evaluation {
  lease: Lease;
  writer: TurnWriter;
  /** The grader's model port (the agent's model, metered against the session's budget). */
  model: ModelPort;
  /** The conversation as the agent's run left it: the work being graded. */
  work: ChatMessage[];
  signal: AbortSignal;
}

/**
 * The grader loop of `user.define_outcome`. Once the agent ends a turn with an outcome open, a grader
 * scores its work against the rubric (`span.outcome_evaluation_start`, `…_ongoing`, `…_end`) while the
 * session stays `running`; a verdict that asks for a revision becomes the agent's next input (see
 * `outcomeMessage`) and the turn runs again, until the rubric is met or `max_iterations` evaluations
 * are spent, after which the agent gets one closing run. The session's `outcome_evaluations[]` follows
 * every step, written under the turn's lease.
 */
@Injectable()
export class OutcomeLoop {
  constructor(
    private readonly evaluations: OutcomeEvaluationsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Outcomes in the turn's input are being worked on from now on. */
  async begin(lease: Lease, input: StoredEvent[]): Promise<void> {
    for (const { event } of input) {
      if (event.type === 'user.define_outcome')
        await this.put(lease, { ...pendingRecord(event), result: 'running' });
    }
  }

  /** Grades the open outcome, if any; true when its verdict gives the agent another run. */
  async evaluate(run: Evaluation): Promise<boolean> {
    const open = (await this.evaluations.read(run.lease.sessionId)).findLast(isOpen);
    if (!open) return false;
    await this.put(run.lease, { ...open, result: 'evaluating' });
    const startId = newId(ID_PREFIXES.sessionEvent);
    const ref = { outcome_id: open.outcome_id, iteration: open.iteration };
    await run.writer.emit({ id: startId, type: 'span.outcome_evaluation_start', ...ref });
    await run.writer.flush();

    let beats = Promise.resolve();
    const beat = () => {
      beats = beats
        .then(() => run.writer.emit({ type: 'span.outcome_evaluation_ongoing', ...ref }))
        .then(() => run.writer.flush());
    };
    beat();
    const timer = setInterval(beat, HEARTBEAT_MS);
    let grade: Omit<Grade, 'verdict'> & { verdict: OutcomeVerdict };
    try {
      grade = await gradeOutcome(run.model, open, run.work, run.signal);
    } catch (error) {
      grade = this.unanswered(error, run.signal, open);
    } finally {
      clearInterval(timer);
      await beats;
    }

    const settled = settleVerdict(open, grade.verdict, grade.explanation, this.clock.now());
    await run.writer.emit({
      type: 'span.outcome_evaluation_end',
      ...ref,
      outcome_evaluation_start_id: startId,
      result: settled.verdict,
      explanation: grade.explanation,
      usage: grade.usage,
    });
    await run.writer.flush();
    await this.put(run.lease, settled.record);
    // An interrupt stops the loop: the turn ends as interrupted turns do.
    return (
      (settled.verdict === 'needs_revision' || settled.verdict === 'max_iterations_reached') &&
      !run.signal.aborted
    );
  }

  /** A grading that produced no verdict: interrupted, or a grader that failed. A lost lease is the turn's to handle. */
  private unanswered(error: unknown, signal: AbortSignal, outcome: OutcomeRecord) {
    if (signal.aborted) {
      if (cancelCause(signal.reason) === 'lease_lost') throw new AppError('CONFLICT', 'turn lease lost');
      return {
        verdict: 'interrupted' as const,
        explanation: 'An interrupt stopped the evaluation.',
        usage: NO_USAGE,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn({ outcomeId: outcome.outcome_id, err: message }, 'the outcome grader failed');
    return {
      verdict: 'failed' as const,
      explanation: `The grader could not evaluate the work: ${message}`,
      usage: NO_USAGE,
    };
  }

  private async put(lease: Lease, record: OutcomeRecord): Promise<void> {
    if (!(await this.evaluations.put(lease, record))) throw new AppError('CONFLICT', 'turn lease lost');
  }
}
