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
