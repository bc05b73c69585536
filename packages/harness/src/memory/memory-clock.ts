/** The part of a clock the memory pipeline needs (the harness Clock fits); injected for deterministic tests. */
export interface MemoryClock {
  now(): Date;
}

export const defaultMemoryClock: MemoryClock = { now: () => new Date() };

export const MEMORY_FILE = 'MEMORY.md';
export const MEMORY_DIR = 'memory';
export const DAILY_LEDGER = /^memory\/(\d{4}-\d{2}-\d{2})\.md$/;

/** The UTC calendar day of a date, YYYY-MM-DD: daily ledgers are keyed by it. */
export function dayKey(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function dailyLedgerPath(date: Date): string {
  return `${MEMORY_DIR}/${dayKey(date)}.md`;
}
