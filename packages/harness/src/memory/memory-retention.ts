import type { WorkspaceFs } from '@agentry/workspace';
import { listFilePaths } from '../context/workspace-read.js';
import { readConsolidationState, writeConsolidationState } from './consolidation-state.js';
import { DAILY_LEDGER, dayKey, MEMORY_DIR, type MemoryClock } from './memory-clock.js';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * Retention for the daily ledgers: deletes `memory/YYYY-MM-DD.md` older than `keepDays` days (today
 * counts as day 0) and drops their consolidation watermarks. Returns the deleted paths.
 */
export async function pruneDailyMemory(
  fs: WorkspaceFs,
  options: { keepDays: number; clock: MemoryClock },
): Promise<string[]> {
  const cutoff = dayKey(new Date(options.clock.now().getTime() - options.keepDays * DAY_MS));
  const deleted: string[] = [];
  for (const path of await listFilePaths(fs, MEMORY_DIR, false)) {
    const day = DAILY_LEDGER.exec(path)?.[1];
    if (day === undefined || day >= cutoff) continue;
    await fs.delete(path);
    deleted.push(path);
  }
  if (deleted.length > 0) {
    const { state, version } = await readConsolidationState(fs);
    if (deleted.some((path) => path in state.offsets)) {
      const offsets = Object.fromEntries(
        Object.entries(state.offsets).filter(([path]) => !deleted.includes(path)),
      );
      await writeConsolidationState(fs, { ...state, offsets }, version);
    }
  }
  return deleted;
}
