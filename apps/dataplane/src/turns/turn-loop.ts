import { Injectable } from '@nestjs/common';
import { isPersistedEvent, type Harness, type RunEndEvent, type RunInput } from '@agentry/harness';
import type { TurnBudget } from '../budgets/turn-budget.js';
import { OutcomeLoop } from '../outcomes/outcome-loop.js';
import { buildConversation, withReadThrough } from '../conversation/conversation-builder.js';
import { withRollbacks } from '../conversation/rollbacks.js';
import { HarnessFactory } from '../agent-harness/harness-factory.js';
import { toPlatformEvent } from '../agent-harness/harness-event.mapper.js';
import type { Turn } from './turn.js';

/**
 * The pipeline's fifth stage: runs the harness and writes what it yields, committed at barriers (before a
 * model call, before a tool runs) so the log holds every step before the next one acts outside it. With
 * an outcome open, a grader judges the run and a verdict asking for more runs the agent again on the log
 * as this turn wrote it: input that arrived meanwhile is not the turn's and waits for the next one.
 */
@Injectable()
export class TurnLoop {
  constructor(
    private readonly outcomes: OutcomeLoop,
    private readonly harnesses: HarnessFactory,
  ) {}

  /** The run's end, or undefined when the harness stopped without one. */
  async run(
    turn: Turn,
    harness: Harness,
    budget: TurnBudget,
    first: RunInput,
  ): Promise<RunEndEvent | undefined> {
    // Outcomes open when the lease was taken or defined in this input; one defined later waits for its turn.
    const outcomeMayBeOpen =
      turn.facts.openOutcome || turn.input.some((e) => e.event.type === 'user.define_outcome');
    let input = first;
    let readThrough = turn.log.at(-1)?.seq ?? 0;
    for (;;) {
      const end = await this.runOnce(turn, harness, budget, input, readThrough);
      if (end?.stop_reason.type !== 'end_turn' || !outcomeMayBeOpen) return end;
      const graded = await this.outcomes.evaluate({
        lease: turn.writer.lease,
        writer: turn.writer,
        model: budget.meterBeside(this.harnesses.modelOf(turn.spec.agent)),
        work: end.conversation,
        signal: turn.abort.signal,
      });
      if (!graded) return end;
      const log = [...turn.log, ...turn.writer.committed];
      input = { conversation: buildConversation(withRollbacks(log), turn.session.id) };
      readThrough = log.at(-1)?.seq ?? readThrough;
    }
  }

  /** `readThrough`: the last seq of the log the input was built from, stamped on a compaction. */
  private async runOnce(
    { session, spec, writer, abort }: Turn,
    harness: Harness,
    budget: TurnBudget,
    input: RunInput,
    readThrough: number,
  ): Promise<RunEndEvent | undefined> {
    let end: RunEndEvent | undefined;
    const run = harness.run(input, { sessionId: session.id, agentId: spec.agent.id }, abort.signal);
    for await (const event of run) {
      if (event.type === 'run.end') end = event;
      else if (isPersistedEvent(event))
        await writer.emit(budget.priced(withReadThrough(toPlatformEvent(event), readThrough)));
      else writer.preview(event);
    }
    return end;
  }
}
