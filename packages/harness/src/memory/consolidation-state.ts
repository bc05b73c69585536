import { AppError } from '@agentry/contracts';
import type { WorkspaceFs } from '@agentry/workspace';
import { readOptionalText } from '../context/workspace-read.js';

const CONSOLIDATION_STATE_PATH = 'memory/.consolidation.json';

/** Kept in the workspace (not in process) so every replica sees the same watermark and interval. */
export interface ConsolidationState {
  /** When the last consolidation started (ISO). */
  lastRunAt?: string;
  /** Per daily ledger, how many chars of it are already merged into MEMORY.md. */
  offsets: Record<string, number>;
}

export interface VersionedState {
  state: ConsolidationState;
  /** The file's version for a compare-and-set write; null when it does not exist yet. */
  version: string | null;
}

export async function readConsolidationState(fs: WorkspaceFs): Promise<VersionedState> {
  const stat = await fs.stat(CONSOLIDATION_STATE_PATH);
  const text = stat ? await readOptionalText(fs, CONSOLIDATION_STATE_PATH) : null;
  if (!stat || text === null) return { state: { offsets: {} }, version: null };
  try {
    const parsed = JSON.parse(text) as Partial<ConsolidationState>;
    const offsets = typeof parsed.offsets === 'object' && parsed.offsets !== null ? parsed.offsets : {};
    return {
      state: { ...(typeof parsed.lastRunAt === 'string' ? { lastRunAt: parsed.lastRunAt } : {}), offsets },
      version: stat.version,
    };
  } catch {
    return { state: { offsets: {} }, version: stat.version }; // unreadable state: start over, but keep the CAS
  }
}

/** Compare-and-set write; returns the new version, or null when someone else wrote first. */
export async function writeConsolidationState(
  fs: WorkspaceFs,
  state: ConsolidationState,
  ifVersion: string | null,
): Promise<string | null> {
  try {
    const stat = await fs.writeText(CONSOLIDATION_STATE_PATH, `${JSON.stringify(state, null, 2)}\n`, {
      ifVersion,
    });
    return stat.version;
  } catch (error) {
    if (
      AppError.is(error, 'CONFLICT') ||
      AppError.is(error, 'ALREADY_EXISTS') ||
      AppError.is(error, 'VERSION_CONFLICT')
    )
      return null;
    throw error;
  }
}
