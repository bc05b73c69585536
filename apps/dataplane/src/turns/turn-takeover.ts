import type { TurnWriter } from './turn-writer.js';

/** Statuses in which a turn was under way when this runner took the lease. */
export const MID_TURN_STATUSES: ReadonlySet<string> = new Set(['running', 'rescheduling']);

/**
 * A turn cut off on another replica (or before a restart) continues here. CMA shows the move: the
 * session goes `rescheduling` (`session.status_rescheduled`), then `running` again on this replica.
 * A session already `rescheduling` (the previous taker stopped in between) only goes on to `running`.
 */
export async function rescheduleHere(writer: TurnWriter, status: string, consume: string[]): Promise<void> {
  if (status === 'running')
    await writer.start(['running'], 'rescheduling', { type: 'session.status_rescheduled' }, consume);
  await writer.start(
    ['rescheduling'],
    'running',
    { type: 'session.status_running' },
    status === 'running' ? [] : consume,
  );
}
