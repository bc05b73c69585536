import { Injectable } from '@nestjs/common';
import type { LeasedTurn, TurnOutcome } from '../drain/session-drain.js';
import { TurnStartRefused } from '../sessions/turn-writer.js';
import { TurnAdmission } from './turn-admission.js';
import { TurnClosing } from './turn-closing.js';
import { TurnContext } from './turn-context.js';
import { TurnHarnesses } from './turn-harnesses.js';
import { TurnLoop } from './turn-loop.js';
import { TurnStart } from './turn-start.js';

/**
 * One turn, stage by stage, under the lease its drain holds (see SessionDrain, which takes the lease with
 * the inbox and the log, keeps it, and lets it go):
 *
 *   admit → start → read the log → build the harness → run it, writing at barriers → close (usage, idle, release)
 *
 * A plain turn's start is written with its first write (its first barrier, before any model call), so
 * a refusal of the start can surface there too (`TurnStartRefused`): the turn then wrote nothing.
 *
 * Each stage is a unit of its own; a model call's budget is asked in one place, the metered model port
 * the harness stage builds.
 */
@Injectable()
export class TurnPipeline {
  constructor(
    private readonly admission: TurnAdmission,
    private readonly start: TurnStart,
    private readonly context: TurnContext,
    private readonly harnesses: TurnHarnesses,
    private readonly loop: TurnLoop,
    private readonly closing: TurnClosing,
  ) {}

  async run(leased: LeasedTurn): Promise<TurnOutcome> {
    const admitted = await this.admission.admit(leased);
    if (admitted.kind !== 'turn') return { progressed: admitted.kind === 'settled' };
    // Read beside the start statement rather than after it: a start refused leaves it unread.
    const prelude = this.harnesses.preludeOf(leased);
    prelude.catch(() => undefined);
    const turn = await this.start.begin(leased, admitted);
    if (!turn) return { progressed: false };
    try {
      const input = await this.context.read(turn);
      const { harness, budget } = await this.harnesses.forTurn(turn, prelude);
      const end = await this.loop.run(turn, harness, budget, input).catch(async (error: unknown) => {
        if (error instanceof TurnStartRefused) throw error;
        await this.closing.fail(turn, error);
        return null;
      });
      if (end !== null) await this.closing.close(turn, budget, end);
      return { progressed: true };
    } catch (error) {
      // A start held for the first write was refused there: nothing was written, as for a refused start.
      if (error instanceof TurnStartRefused) return { progressed: false };
      throw error;
    } finally {
      turn.abort.dispose();
    }
  }
}
