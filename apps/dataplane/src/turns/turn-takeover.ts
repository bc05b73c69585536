import type { TurnWriter } from '../sessions/turn-writer.js';

/** Statuses in which a turn was under way when this runner took the lease. */
export const MID_TURN_STATUSES: ReadonlySet<string> = new Set(['running', 'rescheduling']);

/**
 * A turn cut off on another replica (or before a restart) continues here. CMA shows the move: the
 * session goes `rescheduling` (`session.status_rescheduled`), then `running` again on this replica.
 * A session already `rescheduling` (the previous taker stopped in between) only goes on to `running`.
 * False when input arrived after the lease was taken (see `TurnWriter.start`): nothing was written.
 */
export async function rescheduleHere(
  writer: TurnWriter,
  status: string,
  consume: string[],
  logEndsAt: number,
): Promise<boolean> {
  if (status === 'running') {
    const moved = ['running'];
    if (
      !(await writer.start(moved, 'rescheduling', { type: 'session.status_rescheduled' }, consume, logEndsAt))
    )
      return false;
    await writer.start(['rescheduling'], 'running', { type: 'session.status_running' }, []);
    return true;
  }
  return writer.start(['rescheduling'], 'running', { type: 'session.status_running' }, consume, logEndsAt);
}
