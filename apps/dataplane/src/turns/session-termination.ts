import { Injectable } from '@nestjs/common';
import type { LostDependency } from '../sessions/session-dependencies.js';
import type { TurnWriter } from '../sessions/turn-writer.js';

/**
 * CMA's `terminated`: a session whose environment or agent is gone can never run another turn, so the
 * turn that finds it so ends the session for good, saying why, instead of failing on every new input.
 */
@Injectable()
export class SessionTermination {
  /** True when the session was terminated (its inbox consumed); false when it may run. */
  async terminateIfOrphaned(
    lost: LostDependency | null,
    writer: TurnWriter,
    consume: string[],
  ): Promise<boolean> {
    if (!lost) return false;
    const message =
      `The session's ${lost.kind} ${lost.id} was ${lost.state}, so the session cannot run any more turns and is terminated. ` +
      `Start a new session with an active ${lost.kind}.`;
    await writer.emit({
      type: 'session.error',
      error: { type: 'unknown_error', message, retry_status: { type: 'terminal' } },
    });
    await writer.finish(
      ['idle', 'running', 'rescheduling'],
      'terminated',
      { type: 'session.status_terminated' },
      { consume },
    );
    return true;
  }
}
