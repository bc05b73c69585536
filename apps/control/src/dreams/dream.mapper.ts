import type { Dream, DreamInput, DreamOutputBehavior, DreamStatus, DreamUsage } from '@agentry/contracts';
import type { Dream as DreamRow } from '@agentry/db';

export const ZERO_DREAM_USAGE: DreamUsage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export function toDreamDto(row: DreamRow): Dream {
  return {
    id: row.id,
    type: 'dream',
    status: row.status as DreamStatus,
    inputs: row.inputs as DreamInput[],
    instructions: row.instructions,
    model: row.model as Dream['model'],
    output_behavior: row.outputBehavior as DreamOutputBehavior,
    // As CMA: no output is shown while the dream waits to start.
    outputs:
      row.outputStoreId && row.status !== 'pending'
        ? [{ type: 'memory_store', memory_store_id: row.outputStoreId }]
        : [],
    // The dream runs beside any session: there is no session to stream.
    session_id: null,
    error: (row.error as Dream['error']) ?? null,
    usage: { ...ZERO_DREAM_USAGE, ...(row.usage as Partial<DreamUsage>) },
    created_at: row.createdAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}
