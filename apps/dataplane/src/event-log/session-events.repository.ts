import { Injectable } from '@nestjs/common';
import { AppError, IDEMPOTENCY_KEY_RETENTION_MS, type AppendIdempotency } from '@agentry/contracts';
import { SqlPool, type SqlLane } from '../sql/sql-pool.js';
import { COMPACTION_EVENT, liveLogAfterSql } from './session-log-cache.js';
import { EVENT_COLUMNS, type EventRow } from './event-row.js';

export interface NewEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  /** Inbound events wait in the inbox (null); events the platform emits are born processed. */
  processed: boolean;
}

/** Who may append: a client scoped to a namespace, or the turn runner holding lease `token`. */
export type AppendGuard =
  | { kind: 'client'; tenantId: string; namespaceId: string }
  | { kind: 'turn'; tenantId: string; token: bigint };

/** A status compare-and-set that travels with an append (see `SessionEventsRepository.appendWithTransition`). */
export interface StatusChange {
  from: string[];
  to: string;
  stopReason: Record<string, unknown> | null;
  /** Inbox events this turn consumes, marked processed in the same statement. */
  consume: string[];
  /** Let go of the lease in the same statement: the turn's last write. */
  release?: boolean;
  /**
   * Only if the log still ends at this seq: a turn's start that consumes the inbox it saw, refused when
   * input arrived after the lease was taken (the turn then starts again with it).
   */
  logEndsAt?: number;
}

/** The events that carry conversation content, for search. */
const CONVERSATION_TYPES = [
  'user.message',
  'agent.message',
  'agent.tool_use',
  'agent.tool_result',
  'agent.mcp_tool_use',
  'agent.mcp_tool_result',
  'agent.custom_tool_use',
  'user.custom_tool_result',
  'agent.thread_context_compacted',
];

// Each statement finds the session's row by its primary key alone: the other conditions (the caller's
// scope, the fencing token, the expected status) are written with `IS NOT DISTINCT FROM` or `IS TRUE`,
// which no index serves. Left indexable, the planner at times preferred the namespace's or the status
// index (statistics from when the table was small, or taken while no session ran), and every append
// walked all the namespace's sessions (test/session-row-plans.int.test.ts).

/** Inserts the batch `$4…$7` after the seq that `bumped` reserved; shared by every append statement. */
const INSERT_BATCH = `
  INSERT INTO session_events (id, tenant_id, session_id, seq, type, payload, processed_at, created_at)
  SELECT e.id, $2, $1, bumped.last_seq - cardinality($4::text[]) + e.ord, e.type, e.payload,
         CASE WHEN e.processed THEN now() END, now()
  FROM bumped, unnest($4::text[], $5::text[], $6::jsonb[], $7::bool[]) WITH ORDINALITY AS e(id, type, payload, processed, ord)
  RETURNING ${EVENT_COLUMNS}`;

// With $8 (a batch that brings new work), only while no model call of this session was ever refused at a
// cap and none of the tenant since $9: the new-work gate's common case, checked in the append itself.
const APPEND_AS_CLIENT = `
  WITH bumped AS (
    UPDATE sessions SET last_seq = last_seq + cardinality($4::text[]), updated_at = now()
    WHERE id = $1 AND (tenant_id, namespace_id) IS NOT DISTINCT FROM ($2, $3) AND archived_at IS NULL
      AND NOT ($8::bool AND (
        EXISTS (SELECT 1 FROM usage_ledger WHERE session_id = $1 AND tenant_id = $2 AND kind = 'refusal')
        OR EXISTS (SELECT 1 FROM usage_ledger WHERE tenant_id = $2 AND kind = 'refusal' AND created_at >= $9::timestamptz)))
    RETURNING last_seq)
  ${INSERT_BATCH}`;

// A client append under an idempotency key ($8 key hash, $9 request hash): the key row is written in the
// same statement as the events, so a second append under the key fails on the primary key and writes
// nothing, not even a seq. A key past retention ($10 ms) is dropped first, freeing it (and sweeping the
// session's other expired keys, so no job has to).
const APPEND_AS_CLIENT_KEYED = `
  WITH bumped AS (
    UPDATE sessions SET last_seq = last_seq + cardinality($4::text[]), updated_at = now()
    WHERE id = $1 AND (tenant_id, namespace_id) IS NOT DISTINCT FROM ($2, $3) AND archived_at IS NULL
    RETURNING last_seq),
  expired_keys AS (
    DELETE FROM session_event_keys
    WHERE session_id = $1 AND created_at < now() - make_interval(secs => $10::float8 / 1000) AND EXISTS (SELECT 1 FROM bumped)
    RETURNING 1),
  -- Reading the sweep's count makes it finish before the key is inserted.
  keyed AS (
    INSERT INTO session_event_keys (session_id, key_hash, request_hash, event_ids, created_at)
    SELECT $1, $8, $9, $4::text[], now() FROM bumped, (SELECT count(*) FROM expired_keys) AS swept)
  ${INSERT_BATCH}`;

const APPEND_AS_TURN = `
  WITH bumped AS (
    UPDATE sessions SET last_seq = last_seq + cardinality($4::text[]), updated_at = now()
    WHERE id = $1 AND (tenant_id, lease_token) IS NOT DISTINCT FROM ($2, $3::bigint)
    RETURNING last_seq)
  ${INSERT_BATCH}`;

// One statement, so one round trip and atomic on its own: the status compare-and-set (conditional on
// the fencing token), the inbox consumption and the events, or none of them; at a turn's end also the
// lease's release ($12). Usage totals are not written here: each settlement adds its call itself.
const TRANSITION_CTES = `
  WITH bumped AS (
    UPDATE sessions SET status = $8::session_status, stop_reason = $9::jsonb,
      last_seq = last_seq + cardinality($4::text[]), updated_at = now(),
      lease_owner = CASE WHEN $12::bool THEN NULL ELSE lease_owner END,
      lease_expires_at = CASE WHEN $12::bool THEN NULL ELSE lease_expires_at END
    WHERE id = $1 AND (tenant_id, lease_token) IS NOT DISTINCT FROM ($2, $3::bigint)
      AND (status = ANY($10::session_status[])) IS TRUE
      AND ($13::float8 IS NULL OR last_seq = $13)
    RETURNING last_seq),
  consumed AS (
    UPDATE session_events SET processed_at = now()
    WHERE session_id = $1 AND id = ANY($11::text[]) AND processed_at IS NULL AND EXISTS (SELECT 1 FROM bumped))`;
const APPEND_WITH_TRANSITION = `${TRANSITION_CTES} ${INSERT_BATCH}`;

// A turn's closing write with the turn boundary's checkpoint (see checkpoints.sql.ts) when the session's
// durable Hands copy (roots $15, $16) has no entry: checkpoint $14, sealed at once on the batch's last
// event (the closing status) and its seq, and of the session's other sealed checkpoints only the newest
// $17 - 1 kept. With any entry, no checkpoint is written here (the caller takes one the way that stores
// content). Says whether the checkpoint was written and whether a pruned one named stored content, which
// only then may have left blobs for the sweep.
const CLOSE_WITH_CHECKPOINT = `${TRANSITION_CTES},
  checkpoint AS (
    INSERT INTO session_checkpoints (id, tenant_id, session_id, event_id, seq)
    SELECT $14, $2, $1, ($4::text[])[cardinality($4::text[])], bumped.last_seq FROM bumped
    WHERE NOT EXISTS (SELECT 1 FROM hands_workspace_files WHERE root IN ($15, $16))
    RETURNING id),
  pruned AS (
    DELETE FROM session_checkpoints WHERE session_id = $1 AND seq IS NOT NULL AND EXISTS (SELECT 1 FROM checkpoint)
      AND id NOT IN (SELECT id FROM session_checkpoints
        WHERE session_id = $1 AND seq IS NOT NULL ORDER BY seq DESC LIMIT $17 - 1)
    RETURNING id),
  inserted AS (${INSERT_BATCH})
  SELECT inserted.*, EXISTS (SELECT 1 FROM checkpoint) AS "checkpointTaken",
    EXISTS (SELECT 1 FROM session_checkpoint_files f
      WHERE f.checkpoint_id IN (SELECT id FROM pruned) AND cardinality(f.blobs) > 0) AS "blobsFreed"
  FROM inserted`;

/** A checkpoint written with a turn's closing statement (`closeWithCheckpoint`). */
export interface ClosingCheckpoint {
  id: string;
  /** The session's durable Hands roots (`handsDurableRoots`). */
  roots: { workspace: string; shellState: string };
  /** Sealed checkpoints the session keeps, this one included. */
  keep: number;
}

/** What became of it: not taken when the Hands copy had entries after all. */
export interface ClosingCheckpointOutcome {
  taken: boolean;
  /** A pruned checkpoint named stored content: the tenant's unreferenced blobs want sweeping. */
  blobsFreed: boolean;
}

/**
 * The append-only event log. `seq` comes from `sessions.last_seq`, bumped in the same statement as
 * the insert: the row lock serialises appenders, so a session's seq has no gap and no duplicate.
 */
@Injectable()
export class SessionEventsRepository {
  constructor(private readonly sql: SqlPool) {}

  async append(sessionId: string, guard: AppendGuard, events: NewEvent[]): Promise<EventRow[]> {
    if (events.length === 0) return [];
    const rows = await this.insert(sessionId, guard, events, null);
    if (rows.length === 0) throw (await this.whyNotAppendable(sessionId, guard)) ?? notFound(sessionId);
    return rows;
  }

  /**
   * A client batch that brings new work, appended only while no refused model call stands in its way
   * (see `NewWorkGate.admitsUnrefused`): `null` when one does, and nothing was written.
   */
  async appendNewWork(
    sessionId: string,
    guard: Extract<AppendGuard, { kind: 'client' }>,
    events: NewEvent[],
    unrefused: { since: Date },
  ): Promise<EventRow[] | null> {
    if (events.length === 0) return [];
    const rows = await this.insert(sessionId, guard, events, unrefused);
    if (rows.length > 0) return rows;
    const why = await this.whyNotAppendable(sessionId, guard);
    if (why) throw why;
    return null;
  }

  private async insert(
    sessionId: string,
    guard: AppendGuard,
    events: NewEvent[],
    unrefused: { since: Date } | null,
  ): Promise<EventRow[]> {
    const rows =
      guard.kind === 'client'
        ? await this.sql.query<EventRow>('events.append.client', APPEND_AS_CLIENT, [
            sessionId,
            guard.tenantId,
            guard.namespaceId,
            ...columns(events),
            unrefused !== null,
            unrefused?.since ?? null,
          ])
        : await this.sql.query<EventRow>('events.append.turn', APPEND_AS_TURN, [
            sessionId,
            guard.tenantId,
            guard.token.toString(),
            ...columns(events),
          ]);
    return sortBySeq(rows.rows);
  }

  /**
   * A client append under an idempotency key, in one statement; `null` when the key already holds an
   * append of this session (read it with `SessionEventKeysRepository`).
   */
  async appendKeyed(
    sessionId: string,
    guard: Extract<AppendGuard, { kind: 'client' }>,
    key: AppendIdempotency,
    events: NewEvent[],
  ): Promise<EventRow[] | null> {
    if (events.length === 0) return [];
    try {
      const rows = await this.sql.query<EventRow>(
        'events.append.client-keyed',
        APPEND_AS_CLIENT_KEYED,
        [
          sessionId,
          guard.tenantId,
          guard.namespaceId,
          ...columns(events),
          key.keyHash,
          key.requestHash,
          IDEMPOTENCY_KEY_RETENTION_MS,
        ],
        'pickup',
      );
      if (rows.rowCount === 0) throw (await this.whyNotAppendable(sessionId, guard)) ?? notFound(sessionId);
      return sortBySeq(rows.rows);
    } catch (error) {
      if (isUniqueViolation(error, 'session_event_keys_pkey')) return null;
      throw error;
    }
  }

  /**
   * Appends under the lease with a status compare-and-set; `null` when the status or lease had moved.
   * A turn's start goes through the `pickup` lane.
   */
  async appendWithTransition(
    sessionId: string,
    lease: { tenantId: string; token: bigint },
    change: StatusChange,
    events: NewEvent[],
    lane: SqlLane = 'turn',
  ): Promise<EventRow[] | null> {
    const rows = await this.sql.query<EventRow>(
      'events.append.transition',
      APPEND_WITH_TRANSITION,
      transitionParams(sessionId, lease, events, change),
      lane,
    );
    return rows.rowCount === 0 ? null : sortBySeq(rows.rows);
  }

  /**
   * `appendWithTransition` for a turn's closing write, with the turn boundary's checkpoint in the same
   * statement when the session's Hands copy is empty (see CLOSE_WITH_CHECKPOINT).
   */
  async closeWithCheckpoint(
    sessionId: string,
    lease: { tenantId: string; token: bigint },
    change: StatusChange,
    events: NewEvent[],
    checkpoint: ClosingCheckpoint,
  ): Promise<{ rows: EventRow[]; checkpoint: ClosingCheckpointOutcome } | null> {
    type Row = EventRow & { checkpointTaken: boolean; blobsFreed: boolean };
    const result = await this.sql.query<Row>('events.append.close-checkpointed', CLOSE_WITH_CHECKPOINT, [
      ...transitionParams(sessionId, lease, events, change),
      checkpoint.id,
      checkpoint.roots.workspace,
      checkpoint.roots.shellState,
      checkpoint.keep,
    ]);
    const [first] = result.rows;
    if (!first) return null;
    const outcome = { taken: first.checkpointTaken, blobsFreed: first.blobsFreed };
    const rows = result.rows.map(({ checkpointTaken: _taken, blobsFreed: _freed, ...row }) => row);
    return { rows: sortBySeq(rows), checkpoint: outcome };
  }

  async list(
    sessionId: string,
    options: { afterSeq: number; beforeSeq?: number; limit: number; order: 'asc' | 'desc'; types?: string[] },
  ): Promise<EventRow[]> {
    const rows = await this.sql.query<EventRow>(
      `events.list.${options.order}`,
      `SELECT ${EVENT_COLUMNS} FROM session_events
       WHERE session_id = $1 AND seq > $2 AND ($3::bigint IS NULL OR seq < $3) AND ($4::text[] IS NULL OR type = ANY($4))
       ORDER BY seq ${options.order === 'asc' ? 'ASC' : 'DESC'} LIMIT $5`,
      [
        sessionId,
        options.afterSeq,
        options.beforeSeq ?? null,
        options.types?.length ? options.types : null,
        options.limit,
      ],
    );
    return rows.rows;
  }

  /** Which of `ids` name events of `type` in the session. */
  async existing(sessionId: string, type: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.sql.query<{ id: string }>(
      'events.existing',
      'SELECT id FROM session_events WHERE session_id = $1 AND type = $2 AND id = ANY($3::text[])',
      [sessionId, type, ids],
    );
    return new Set(rows.rows.map((r) => r.id));
  }

  /** Every event of a session in order: the state a turn is rebuilt from. */
  all(sessionId: string): Promise<EventRow[]> {
    return this.after(sessionId, 0);
  }

  /** The events that follow `afterSeq`, in order. */
  async after(sessionId: string, afterSeq: number): Promise<EventRow[]> {
    const rows = await this.sql.query<EventRow>(
      'events.after',
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1 AND seq > $2 ORDER BY seq`,
      [sessionId, afterSeq],
    );
    return rows.rows;
  }

  /**
   * The events from the last one of `type` on (all of them when there is none), in order. The
   * backward scan of the (session, seq) index stops at that event, so the cost follows what came
   * after it, not the length of the log.
   */
  async fromLast(sessionId: string, type: string): Promise<EventRow[]> {
    const rows = await this.sql.query<EventRow>(
      'events.from-last',
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1 AND seq >= coalesce(
         (SELECT seq FROM session_events WHERE session_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1), 0)
       ORDER BY seq`,
      [sessionId, type],
    );
    return rows.rows;
  }

  /** The live part of a session's log, from its last compaction on (see `liveLogAfterSql`). */
  async liveLog(sessionId: string): Promise<EventRow[]> {
    const rows = await this.sql.query<EventRow>(
      'events.live-log',
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1 AND seq > ${liveLogAfterSql('$1', '$2')}
       ORDER BY seq`,
      [sessionId, COMPACTION_EVENT],
    );
    return rows.rows;
  }

  /**
   * Inbound events not yet consumed by a turn, in seq order: what a drain looks at after releasing the
   * lease, so on the pickup lane (input that came during the turn starts its own turn from it).
   */
  async inbox(sessionId: string): Promise<EventRow[]> {
    const rows = await this.sql.query<EventRow>(
      'events.inbox',
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1 AND processed_at IS NULL ORDER BY seq`,
      [sessionId],
      'pickup',
    );
    return rows.rows;
  }

  /** Conversation events of every session of an agent, oldest session first: what `session_search` reads. */
  async ofAgent(
    tenantId: string,
    agentId: string,
    limit: number,
  ): Promise<Array<EventRow & { sessionId: string }>> {
    const rows = await this.sql.query<EventRow & { sessionId: string }>(
      'events.of-agent',
      `SELECT e.session_id AS "sessionId", e.${EVENT_COLUMNS.split(', ').join(', e.')}
       FROM session_events e JOIN sessions s ON s.id = e.session_id
       WHERE s.tenant_id = $1 AND s.agent_id = $2 AND e.type = ANY($3::text[])
       ORDER BY s.created_at, e.seq LIMIT $4`,
      [tenantId, agentId, CONVERSATION_TYPES, limit],
    );
    return rows.rows;
  }

  async markProcessed(sessionId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(
      'events.mark-processed',
      'UPDATE session_events SET processed_at = now() WHERE session_id = $1 AND id = ANY($2::text[]) AND processed_at IS NULL',
      [sessionId, ids],
    );
  }

  /** Why an append wrote nothing: the lease lost, no such session, or archived; null when it takes events. */
  private async whyNotAppendable(sessionId: string, guard: AppendGuard): Promise<AppError | null> {
    if (guard.kind === 'turn') {
      return new AppError(
        'CONFLICT',
        `Turn lease on session ${sessionId} was lost (fencing token ${guard.token})`,
      );
    }
    const found = await this.sql.query<{ namespace_id: string; archived: boolean }>(
      'sessions.appendable',
      'SELECT namespace_id, archived_at IS NOT NULL AS archived FROM sessions WHERE id = $1 AND tenant_id = $2',
      [sessionId, guard.tenantId],
    );
    const session = found.rows[0];
    if (!session || session.namespace_id !== guard.namespaceId) return notFound(sessionId);
    if (session.archived)
      return new AppError('INVALID_REQUEST', `Session ${sessionId} is archived and accepts no events`);
    return null;
  }
}

function notFound(sessionId: string): AppError {
  return new AppError('NOT_FOUND', `Session ${sessionId} not found`);
}

function columns(events: NewEvent[]): [string[], string[], string[], boolean[]] {
  return [
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => JSON.stringify(e.payload)),
    events.map((e) => e.processed),
  ];
}

function sortBySeq(rows: EventRow[]): EventRow[] {
  return rows.sort((a, b) => a.seq - b.seq);
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pgError = error as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === constraint;
}

/** The parameters every appending status change binds first, in the order its statement reads them. */
function transitionParams(
  sessionId: string,
  lease: { tenantId: string; token: bigint },
  events: NewEvent[],
  change: StatusChange,
): unknown[] {
  return [
    sessionId,
    lease.tenantId,
    lease.token.toString(),
    ...columns(events),
    change.to,
    change.stopReason === null ? null : JSON.stringify(change.stopReason),
    change.from,
    change.consume,
    change.release ?? false,
    change.logEndsAt ?? null,
  ];
}
