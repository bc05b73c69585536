import type { StoredEvent } from '@agentry/contracts';

/**
 * The log as the model sees it after rollbacks: a `session.rolled_back` event makes the context what it
 * was at its checkpoint (`to_seq`, itself read with the rollbacks before it) followed by what comes after
 * the marker, so the context is rebuilt from the checkpoint while the log itself stays append-only.
 */
export function withRollbacks(log: StoredEvent[]): StoredEvent[] {
  if (!log.some((e) => e.event.type === 'session.rolled_back')) return log;
  let kept: StoredEvent[] = [];
  for (const entry of log) {
    if (entry.event.type !== 'session.rolled_back') kept.push(entry);
    else {
      const to = entry.event.to_seq;
      kept = withRollbacks(log.filter((e) => e.seq <= to));
    }
  }
  return kept;
}
