/** Bookkeeping fields of a transcript line that carry no conversation content. */
const SKIPPED_KEYS = new Set([
  'id',
  'type',
  'parentId',
  'timestamp',
  'created_at',
  'session_id',
  'tool_use_id',
  'signature',
  'processed_at',
]);

/** The conversation text of a logged event, bookkeeping fields left out. */
export function collectText(value: unknown, out: string[], key = ''): void {
  if (SKIPPED_KEYS.has(key)) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectText(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectText(v, out, k);
  }
}
