import { AppError } from '@agentry/contracts';
import type { WorkspaceFs } from '@agentry/workspace';
import type { ModelPort } from '../model/model-port.js';
import { completeText } from '../context/model-text.js';
import { listFilePaths, readOptionalText } from '../context/workspace-read.js';
import { readConsolidationState, writeConsolidationState } from './consolidation-state.js';
import { DAILY_LEDGER, MEMORY_DIR, MEMORY_FILE, type MemoryClock } from './memory-clock.js';
import { NO_REPLY } from './memory-flush.js';

const DEFAULT_CONSOLIDATION_INTERVAL_MS = 30 * 60 * 1_000;

const MEMORY_CONSOLIDATION_SYSTEM_PROMPT = `You maintain MEMORY.md, an agent's curated long-term memory. Merge the new daily memory entries into the current MEMORY.md.

Rules:
- Output the COMPLETE new MEMORY.md as markdown, nothing else.
- Keep it organised by topic with short headings and concise, self-contained bullets.
- Deduplicate: merge entries that say the same thing; when facts conflict, keep the newer one.
- Keep dates, names and specifics. Drop ephemeral status updates that no longer matter.
- Stay under about {maxTokens} tokens: compress older, less important details first.
- If the new entries add nothing, reply with exactly: ${NO_REPLY}`;

export interface ConsolidateMemoryParams {
  fs: WorkspaceFs;
  model: ModelPort;
  clock: MemoryClock;
  /** Minimum time between two consolidations (default 30 min). */
  minIntervalMs?: number;
  /** Size target of MEMORY.md given to the model (default 4,000 tokens). */
  maxTokens?: number;
  /** Cap on new ledger text sent in one run (default 200,000 chars); the remainder is merged next time. */
  maxInputChars?: number;
  signal?: AbortSignal;
}

export type ConsolidationOutcome =
  | { status: 'too_soon'; nextAllowedAt: Date }
  | { status: 'nothing_new' }
  | { status: 'busy' }
  | { status: 'unchanged'; ledgers: string[] }
  | { status: 'consolidated'; ledgers: string[] };

/**
 * Merges what the daily ledgers gained since the last run into MEMORY.md with one model call. Runs at
 * most once per `minIntervalMs`; the watermark and last-run time live in memory/.consolidation.json,
 * claimed with a compare-and-set so two replicas never consolidate at once.
 */
export async function consolidateMemory(params: ConsolidateMemoryParams): Promise<ConsolidationOutcome> {
  const { fs, clock } = params;
  const now = clock.now();
  const minInterval = params.minIntervalMs ?? DEFAULT_CONSOLIDATION_INTERVAL_MS;
  const { state, version } = await readConsolidationState(fs);
  if (state.lastRunAt !== undefined) {
    const nextAllowedAt = new Date(Date.parse(state.lastRunAt) + minInterval);
    if (now < nextAllowedAt) return { status: 'too_soon', nextAllowedAt };
  }

  const offsets = { ...state.offsets };
  const fresh: string[] = [];
  const ledgers: string[] = [];
  // One call must fit the model: take ledgers oldest first up to the input cap; the rest waits for the next run.
  let room = params.maxInputChars ?? 200_000;
  for (const path of (await listFilePaths(fs, MEMORY_DIR, false)).filter((p) => DAILY_LEDGER.test(p))) {
    if (room <= 0) break;
    const content = (await readOptionalText(fs, path)) ?? '';
    const seen = offsets[path] ?? 0;
    const from = content.length >= seen ? seen : 0; // a shrunken ledger was rewritten: read it again
    let added = content.slice(from, from + room);
    if (from + added.length < content.length) {
      // Stop at a line end so no entry is split; with nothing taken yet, a hard cut still makes progress.
      const lineEnd = added.lastIndexOf('\n');
      if (lineEnd >= 0) added = added.slice(0, lineEnd + 1);
      else if (fresh.length > 0) break;
    }
    offsets[path] = from + added.length;
    if (added.trim() === '') continue;
    room -= added.length;
    ledgers.push(path);
    fresh.push(`### From ${path}\n${added.trim()}`);
  }
  if (fresh.length === 0) return { status: 'nothing_new' };

  const claimed = await writeConsolidationState(fs, { ...state, lastRunAt: now.toISOString() }, version);
  if (claimed === null) return { status: 'busy' };

  const maxTokens = params.maxTokens ?? 4_000;
  let changed = false;
  // MEMORY.md may be appended to (memory_save) while the model works: re-read and retry on conflict.
  for (let attempt = 0; ; attempt += 1) {
    const memoryStat = await fs.stat(MEMORY_FILE);
    const current = memoryStat ? ((await readOptionalText(fs, MEMORY_FILE)) ?? '') : '';
    const reply = await completeText(
      params.model,
      {
        messages: [
          {
            role: 'system',
            content: MEMORY_CONSOLIDATION_SYSTEM_PROMPT.replace('{maxTokens}', String(maxTokens)),
          },
          {
            role: 'user',
            content: [
              {
                type: 'text',
                text: `Current MEMORY.md:\n${current.trim() || '(empty)'}\n\nNew daily entries:\n${fresh.join('\n\n')}`,
              },
            ],
          },
        ],
        maxTokens: Math.ceil(maxTokens * 1.5),
        temperature: 0,
      },
      params.signal,
    );
    if (reply === '' || reply === NO_REPLY) break;
    try {
      await fs.writeText(MEMORY_FILE, `${reply}\n`, { ifVersion: memoryStat ? memoryStat.version : null });
      changed = true;
      break;
    } catch (error) {
      if (!(AppError.is(error, 'CONFLICT') || AppError.is(error, 'ALREADY_EXISTS')) || attempt >= 2)
        throw error;
    }
  }
  await writeConsolidationState(fs, { lastRunAt: now.toISOString(), offsets }, claimed);
  return { status: changed ? 'consolidated' : 'unchanged', ledgers };
}
