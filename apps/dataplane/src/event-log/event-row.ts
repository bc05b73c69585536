/** A `session_events` row as the dataplane reads it. */
export interface EventRow {
  id: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  processedAt: Date | null;
  createdAt: Date;
}

/** The columns every event query returns, in the shape of `EventRow`. */
export const EVENT_COLUMNS = `id, seq::float8 AS seq, type, payload, processed_at AS "processedAt", created_at AS "createdAt"`;

/** The same columns as one JSON object of table alias `e`, for a query that returns events inside a row. */
export const EVENT_JSON_OBJECT = `json_build_object('id', e.id, 'seq', e.seq::float8, 'type', e.type,
  'payload', e.payload, 'processedAt', e.processed_at, 'createdAt', e.created_at)`;

/** An `EVENT_JSON_OBJECT` as parsed from JSON: its timestamps arrive as text. */
export type EventRowJson = Omit<EventRow, 'processedAt' | 'createdAt'> & {
  processedAt: string | null;
  createdAt: string;
};

export function eventRowFromJson(row: EventRowJson): EventRow {
  return {
    ...row,
    processedAt: row.processedAt === null ? null : new Date(row.processedAt),
    createdAt: new Date(row.createdAt),
  };
}
