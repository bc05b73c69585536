import { Injectable } from '@nestjs/common';
import {
  EVENT_JSON_OBJECT,
  eventRowFromJson,
  type EventRow,
  type EventRowJson,
} from '../event-log/event-row.js';
import { liveLogAfterSql } from '../event-log/session-log-cache.js';
import { SqlPool } from '../sql/sql-pool.js';
import {
  DEPENDENCY_COLUMNS,
  lostDependencyOf,
  type DependencyFacts,
  type LostDependency,
} from './session-dependencies.js';

export interface Lease {
  sessionId: string;
  tenantId: string;
  token: bigint;
}

/** What the dataplane reads of a session row at run time. */
export interface SessionState {
  id: string;
  tenantId: string;
  namespaceId: string;
  environmentId: string;
  status: string;
  archivedAt: Date | null;
  /** The frozen runtime spec resolved at creation (agent version, environment). */
  spec: unknown;
  lastSeq: number;
}

/** What a turn needs of the row beyond its state, read with the lease so the turn starts in one round trip. */
interface TurnStartFacts {
  /** The environment or agent the session can no longer run on, if any. */
  lost: LostDependency | null;
  /** The session's budget and usage totals. */
  account: { budget: Record<string, unknown> | null; usage: Record<string, number> };
  /** Whether the session lists `resources[]` (files, memory stores, repositories) to mount. */
  hasResources: boolean;
  /** Whether the session lists vaults, whose credentials its sandbox's commands may use. */
  hasVaults: boolean;
  /** Whether an outcome is still open (pending, running, evaluating): only then is one graded. */
  openOutcome: boolean;
  /**
   * The session's durable Hands copy (workspace and shell state) has no entry: a turn that runs no tool
   * leaves it so, and its checkpoint is written with the closing statement (`TurnCheckpoints`).
   */
  workspaceEmpty: boolean;
}

/** A lease just taken, with the row under it and the inbox as it stood when the lease was taken. */
export interface Acquired {
  lease: Lease;
  session: SessionState;
  facts: TurnStartFacts;
  /**
   * Inbound events not yet consumed, in seq order, read in the statement that took the lease. Input
   * committed after it raised the wake-up flag again and finds the lease held; the holder looks at the
   * inbox once more after releasing it, so nothing committed later is left behind.
   */
  inbox: EventRow[];
  /**
   * The log the turn works from, read in the same statement: the events after the seq the caller asked
   * from, or from the last compaction on. Input committed after the lease was taken is not in it; it
   * waits in the inbox for the next turn, so a turn answers exactly the input it consumes.
   */
  log: EventRow[];
  /** The session's last seq as of the same snapshot: where the log the turn saw ends. */
  logEnd: number;
}

/** The inbox as a JSON array inside the lease statement. */
const INBOX_JSON = `coalesce((SELECT json_agg(${EVENT_JSON_OBJECT} ORDER BY e.seq)
  FROM session_events e WHERE e.session_id = leased.id AND e.processed_at IS NULL), '[]'::json)`;

/**
 * The log after seq $4, or from the last event of type $5 (a compaction) on when $4 is null (see
 * `liveLogAfterSql`); none when $5 is null. Compared as bigint, so the (session, seq) index bounds the read.
 */
const LOG_JSON = `CASE WHEN $5::text IS NULL THEN '[]'::json ELSE coalesce((SELECT json_agg(${EVENT_JSON_OBJECT} ORDER BY e.seq)
  FROM session_events e WHERE e.session_id = leased.id
    AND e.seq > coalesce($4::bigint, ${liveLogAfterSql('leased.id', '$5')})), '[]'::json) END`;

const STATE_COLUMNS = `id, tenant_id AS "tenantId", namespace_id AS "namespaceId", environment_id AS "environmentId",
  status::text AS status, archived_at AS "archivedAt", spec, last_seq::float8 AS "lastSeq"`;

/**
 * Run-time state of a session row: the turn lease with its fencing token, and reads of the row. Every
 * statement finds the row by primary key alone; conditions an index could also serve are written so none
 * does (see SessionEventsRepository).
 */
/**
 * The lease's holder belongs to a replica whose liveness row has lapsed (`ReplicaLiveness`): its lease can be
 * taken before it expires. An owner with no row (not a replica's) is only ever taken at expiry.
 */
/** The session's durable Hands roots, as `handsDurableRoots` names them, of the row being leased. */
const HANDS_ROOT = `'tenants/' || sessions.tenant_id || '/hands/sessions/' || sessions.id`;
const WORKSPACE_EMPTY = `NOT EXISTS (SELECT 1 FROM hands_workspace_files f
  WHERE f.root IN (${HANDS_ROOT}, ${HANDS_ROOT} || '#shell'))`;

const HOLDER_DEAD = `EXISTS (SELECT 1 FROM dataplane_replicas r
  WHERE r.replica = split_part(sessions.lease_owner, '/', 1) AND r.alive_until < now())`;

@Injectable()
export class SessionStateRepository {
  constructor(private readonly sql: SqlPool) {}

  async find(sessionId: string): Promise<SessionState | null> {
    const rows = await this.sql.query<SessionState>(
      'sessions.find',
      `SELECT ${STATE_COLUMNS} FROM sessions WHERE id = $1`,
      [sessionId],
    );
    return rows.rows[0] ?? null;
  }

  async findForTenant(
    sessionId: string,
    tenantId: string,
    namespaceId: string,
  ): Promise<SessionState | null> {
    const rows = await this.sql.query<SessionState>(
      'sessions.find-for-tenant',
      `SELECT ${STATE_COLUMNS} FROM sessions WHERE id = $1 AND (tenant_id, namespace_id) IS NOT DISTINCT FROM ($2, $3)`,
      [sessionId, tenantId, namespaceId],
    );
    return rows.rows[0] ?? null;
  }

  /**
   * Takes the lease if it is free or expired; each acquisition gets a larger fencing token. Returns the
   * row as it stands under the new lease, the session's inbox and, when asked, its log after `log.from`
   * (from the last event of type `log.start` when null), all as of one snapshot, so a turn starts with
   * one round trip.
   */
  async acquire(
    sessionId: string,
    owner: string,
    ttlMs: number,
    log: { from: number | null; start: string } | null = null,
  ): Promise<Acquired | null> {
    type Row = SessionState &
      DependencyFacts &
      TurnStartFacts['account'] & {
        token: string;
        hasResources: boolean;
        hasVaults: boolean;
        openOutcome: boolean;
        workspaceEmpty: boolean;
        inbox: EventRowJson[];
        log: EventRowJson[];
        logEnd: number;
      };
    const rows = await this.sql.query<Row>(
      'sessions.acquire',
      `WITH leased AS (
         UPDATE sessions
         SET lease_owner = $2, lease_token = lease_token + 1, lease_expires_at = now() + make_interval(secs => $3)
         WHERE id = $1 AND archived_at IS NULL
           AND (lease_expires_at IS NULL OR lease_expires_at < now() OR ${HOLDER_DEAD})
         RETURNING lease_token::text AS token, ${STATE_COLUMNS}, ${DEPENDENCY_COLUMNS}, budget, usage,
           CASE WHEN jsonb_typeof(resources) = 'array' THEN jsonb_array_length(resources) > 0 ELSE false END AS "hasResources",
           cardinality(vault_ids) > 0 AS "hasVaults",
           coalesce((SELECT bool_or(o ->> 'result' IN ('pending', 'running', 'evaluating'))
             FROM jsonb_array_elements(outcome_evaluations) AS o), false) AS "openOutcome",
           ${WORKSPACE_EMPTY} AS "workspaceEmpty")
       SELECT leased.*, ${INBOX_JSON} AS inbox, ${LOG_JSON} AS log,
         -- The statement's snapshot, not the row the UPDATE locked (it may hold a later append).
         (SELECT s.last_seq::float8 FROM sessions s WHERE s.id = leased.id) AS "logEnd"
       FROM leased`,
      [sessionId, owner, ttlMs / 1000, log?.from ?? null, log?.start ?? null],
      'pickup',
    );
    const row = rows.rows[0];
    if (!row) return null;
    const {
      token,
      environmentId,
      agentId,
      environmentArchived,
      agentArchived,
      budget,
      usage,
      hasResources,
      hasVaults,
      openOutcome,
      workspaceEmpty,
      inbox,
      log: logRows,
      logEnd,
      ...state
    } = row;
    const session = { ...state, environmentId };
    const facts = {
      lost: lostDependencyOf({ environmentId, agentId, environmentArchived, agentArchived }),
      account: { budget, usage },
      hasResources,
      hasVaults,
      openOutcome,
      workspaceEmpty,
    };
    return {
      lease: { sessionId, tenantId: session.tenantId, token: BigInt(token) },
      session,
      facts,
      inbox: inbox.map(eventRowFromJson),
      log: logRows.map(eventRowFromJson),
      logEnd,
    };
  }

  /** The live lease on a session, if any: its token and how long until it expires. */
  async liveLease(
    sessionId: string,
  ): Promise<{ tenantId: string; token: bigint; expiresInMs: number } | null> {
    const rows = await this.sql.query<{ tenant_id: string; token: string; expires_in_ms: number }>(
      'sessions.live-lease',
      `SELECT tenant_id, lease_token::text AS token, (extract(epoch FROM lease_expires_at - now()) * 1000)::float8 AS expires_in_ms
       FROM sessions WHERE id = $1 AND lease_expires_at > now()`,
      [sessionId],
    );
    const row = rows.rows[0];
    return row ? { tenantId: row.tenant_id, token: BigInt(row.token), expiresInMs: row.expires_in_ms } : null;
  }

  async renew(lease: Lease, ttlMs: number): Promise<boolean> {
    const result = await this.sql.query(
      'sessions.renew',
      // A released lease stays released: a renewal racing the turn's last write must not revive it.
      `UPDATE sessions SET lease_expires_at = now() + make_interval(secs => $3)
       WHERE id = $1 AND lease_token = $2::bigint AND (lease_owner IS NOT NULL) IS TRUE`,
      [lease.sessionId, lease.token.toString(), ttlMs / 1000],
    );
    return result.rowCount === 1;
  }

  /**
   * Sessions whose lease expired while held, or whose holder's replica stopped beating: the holder crashed
   * or lost Postgres. A released lease has no owner, so it is not listed. Served by a partial index of held
   * leases (as many as turns running).
   */
  async expiredLeases(limit: number): Promise<Array<{ sessionId: string; tenantId: string }>> {
    const rows = await this.sql.query<{ sessionId: string; tenantId: string }>(
      'sessions.expired-leases',
      `SELECT id AS "sessionId", tenant_id AS "tenantId" FROM sessions
       WHERE lease_owner IS NOT NULL AND archived_at IS NULL AND (lease_expires_at < now() OR ${HOLDER_DEAD})
       ORDER BY lease_expires_at LIMIT $1`,
      [limit],
    );
    return rows.rows;
  }

  /** On the pickup lane: input that came during the turn waits for this release to start its own. */
  async release(lease: Lease): Promise<void> {
    await this.sql.query(
      'sessions.release',
      'UPDATE sessions SET lease_expires_at = NULL, lease_owner = NULL WHERE id = $1 AND lease_token = $2::bigint',
      [lease.sessionId, lease.token.toString()],
      'pickup',
    );
  }
}
