import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { withSqlTransaction } from '@agentry/db';
import { SqlPool } from '../sql/sql-pool.js';

/** Who a model call is billed to. */
export interface UsageOwner {
  tenantId: string;
  namespaceId: string;
  sessionId: string;
  agentId: string;
  /** The session thread the call ran in, when not the paying session itself: its totals count it too. */
  threadId?: string;
}

/** Token counts and list cost of one ledger row. */
export interface LedgerAmounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  listCostMicros: number;
}

/** What a tenant and one of its sessions have spent and hold in open reservations. */
export interface SpendSnapshot {
  tenantSlug: string;
  /** The session's budget as stored (`{type:"limit", max_list_cost}`), null without one. */
  sessionBudget: { max_list_cost: { amount: string } } | null;
  sessionCostMicros: number;
  /** Tokens and cost since the start of the UTC day and month (settled + held). */
  dayTokens: number;
  dayCostMicros: number;
  monthTokens: number;
  monthCostMicros: number;
}

/** Starts of the UTC day and month quotas count from; `infinity` when no quota applies. */
export interface SpendPeriods {
  dayStart: Date | 'infinity';
  monthStart: Date | 'infinity';
}

/** The call a cap refused last: new input is judged against it. */
export interface RefusedCall {
  model: string;
  input_tokens: number;
  output_tokens: number;
}

/** A reservation nobody settled (its runner died) stops holding budget after this long. */
const RESERVATION_HOLD = '15 minutes';

/** Rows that count as spend: settlements, and reservations still open and recent. */
const COUNTED = `(l.kind = 'settlement' OR (l.kind = 'reservation' AND l.created_at > now() - interval '${RESERVATION_HOLD}'
  AND NOT EXISTS (SELECT 1 FROM usage_ledger x WHERE x.reservation_id = l.reservation_id AND x.kind <> 'reservation')))`;

const TOKENS = 'l.input_tokens + l.output_tokens + l.cache_read_tokens + l.cache_write_tokens';

/**
 * The session's spend (by its own index) and the tenant's since the month start (by tenant and time; a month
 * start of 'infinity' skips it when no quota applies).
 */
const SPEND_SQL = `
  WITH tenant_rows AS (
    SELECT l.created_at, l.list_cost_micros, ${TOKENS} AS tokens
    FROM usage_ledger l WHERE l.tenant_id = $1 AND l.created_at >= $3 AND ${COUNTED}
  )
  SELECT
    (SELECT slug FROM tenants WHERE id = $1) AS "tenantSlug",
    (SELECT budget FROM sessions WHERE id = $2) AS "sessionBudget",
    -- Only a budgeted session's spend is read: it is the only one judged against it.
    (SELECT CASE WHEN s.budget IS NULL THEN 0 ELSE (SELECT coalesce(sum(l.list_cost_micros), 0)::float8
       FROM usage_ledger l WHERE l.session_id = $2 AND ${COUNTED}) END FROM sessions s WHERE s.id = $2) AS "sessionCostMicros",
    coalesce(sum(tokens) FILTER (WHERE created_at >= $4), 0)::float8 AS "dayTokens",
    coalesce(sum(list_cost_micros) FILTER (WHERE created_at >= $4), 0)::float8 AS "dayCostMicros",
    coalesce(sum(tokens), 0)::float8 AS "monthTokens",
    coalesce(sum(list_cost_micros), 0)::float8 AS "monthCostMicros"
  FROM tenant_rows`;

const REFUSED = `json_build_object('model', model, 'input_tokens', input_tokens, 'output_tokens', output_tokens)`;

const LEDGER_COLUMNS = `tenant_id, namespace_id, session_id, agent_id, kind, reservation_id, model,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, list_cost_micros, currency`;

const INSERT_SQL = `
  INSERT INTO usage_ledger (${LEDGER_COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'USD')`;

/** The same row, written only while the session has no budget (nothing to hold it against). */
const RESERVE_UNBUDGETED_SQL = `
  INSERT INTO usage_ledger (${LEDGER_COLUMNS})
  SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::bigint, $9::bigint, $10::bigint, $11::bigint, $12::bigint, 'USD'
  WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE id = $3 AND budget IS NOT NULL)`;

/**
 * The settlement row and the call's usage added key by key to the totals of the paying session and of
 * the thread it ran in ($13), in one statement: the session's `usage` is what its ledger holds, whatever
 * happens to the turn afterwards. Returns the totals of the session or thread the call ran in.
 */
const ADDED_USAGE = `s.usage || (
  SELECT coalesce(jsonb_object_agg(u.k, coalesce((s.usage ->> u.k)::numeric, 0) + u.v::numeric), '{}'::jsonb)
  FROM jsonb_each_text($14::jsonb) AS u(k, v))`;
const SETTLE_SQL = `
  WITH settled AS (${INSERT_SQL} RETURNING 1),
  on_session AS (
    UPDATE sessions s SET usage = ${ADDED_USAGE} FROM settled WHERE s.id = $3 RETURNING s.usage),
  -- Each row by its primary key alone (see SessionEventsRepository).
  on_thread AS (
    UPDATE sessions s SET usage = ${ADDED_USAGE} FROM settled WHERE s.id = $13 AND $13 <> $3 RETURNING s.usage)
  SELECT coalesce((SELECT usage FROM on_thread), (SELECT usage FROM on_session)) AS usage`;

/**
 * The usage ledger (`usage_ledger`): reservations before model calls, settlements after. Reserving is
 * check-then-insert under an advisory lock (per tenant when quotas are summed, else per session), so
 * concurrent calls never both pass a cap.
 */
@Injectable()
export class UsageLedgerRepository {
  constructor(private readonly sql: SqlPool) {}

  /**
   * Reads the spend under the tenant's lock and writes the reservation if `admit` says so; `admit`
   * returns a refusal or null. A refused estimate is written as a `refusal` row, which holds no budget.
   */
  async reserve<R>(
    owner: UsageOwner,
    reservationId: string,
    model: string,
    amounts: LedgerAmounts,
    periods: SpendPeriods,
    admit: (spend: SpendSnapshot) => R | null,
  ): Promise<R | null> {
    return withSqlTransaction(this.sql.pool, async (client) => {
      // Quotas are shared by the tenant's sessions; without them only the session's own budget is at stake.
      const scope =
        periods.monthStart === 'infinity' ? `session:${owner.sessionId}` : `tenant:${owner.tenantId}`;
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`usage:${scope}`]);
      const spend = await client.query<SpendSnapshot>({
        name: 'usage.spend',
        text: SPEND_SQL,
        values: [owner.tenantId, owner.sessionId, periods.monthStart, periods.dayStart],
      });
      const refusal = admit(spend.rows[0]!);
      await insert(
        client,
        owner,
        refusal === null ? 'reservation' : 'refusal',
        reservationId,
        model,
        amounts,
      );
      return refusal;
    });
  }

  /**
   * Writes the reservation in one statement when no cap can apply: no tenant quota is summed and the
   * session has no budget as the statement runs. Returns false, writing nothing, when the session has a
   * budget; the caller then takes the locked path of `reserve`.
   */
  async reserveUnlessBudgeted(
    owner: UsageOwner,
    reservationId: string,
    model: string,
    amounts: LedgerAmounts,
  ): Promise<boolean> {
    const inserted = await this.sql.query(
      'usage.reserve-unbudgeted',
      RESERVE_UNBUDGETED_SQL,
      ledgerValues(owner, 'reservation', reservationId, model, amounts),
    );
    return inserted.rowCount === 1;
  }

  /**
   * The call's real usage, closing its reservation and counted on the session's totals at once (see
   * `SETTLE_SQL`); returns the totals of the session or thread the call ran in, null when it is gone.
   */
  async settle(
    owner: UsageOwner,
    reservationId: string,
    model: string,
    amounts: LedgerAmounts,
  ): Promise<Record<string, number> | null> {
    const increments = {
      input_tokens: amounts.inputTokens,
      output_tokens: amounts.outputTokens,
      cache_read_input_tokens: amounts.cacheReadTokens,
      cache_creation_input_tokens: amounts.cacheWriteTokens,
      list_cost_micros: amounts.listCostMicros,
    };
    const rows = await this.sql.query<{ usage: Record<string, number> }>('usage.settle', SETTLE_SQL, [
      ...ledgerValues(owner, 'settlement', reservationId, model, amounts),
      owner.threadId ?? owner.sessionId,
      JSON.stringify(increments),
    ]);
    return rows.rows[0]?.usage ?? null;
  }

  /** The call failed before reporting usage: its reservation stops holding budget. */
  async release(owner: UsageOwner, reservationId: string, model: string): Promise<void> {
    await insert(this.sql.pool, owner, 'release', reservationId, model, ZERO);
  }

  /** The last call refused for this session, and the last one refused anywhere in the tenant since `since`. */
  async lastRefusals(
    owner: Pick<UsageOwner, 'tenantId' | 'namespaceId' | 'sessionId'>,
    since: Date,
  ): Promise<{ session: RefusedCall | null; tenant: RefusedCall | null }> {
    const rows = await this.sql.query<{ session: RefusedCall | null; tenant: RefusedCall | null }>(
      'usage.last-refusals',
      `SELECT
         (SELECT ${REFUSED} FROM usage_ledger WHERE session_id = $2 AND tenant_id = $1 AND namespace_id = $4 AND kind = 'refusal' ORDER BY created_at DESC, id DESC LIMIT 1) AS session,
         (SELECT ${REFUSED} FROM usage_ledger WHERE tenant_id = $1 AND kind = 'refusal' AND created_at >= $3 ORDER BY created_at DESC, id DESC LIMIT 1) AS tenant`,
      [owner.tenantId, owner.sessionId, since, owner.namespaceId],
    );
    return rows.rows[0] ?? { session: null, tenant: null };
  }

  /** The same spend without reserving, for admission of new work. */
  async spend(tenantId: string, sessionId: string, periods: SpendPeriods): Promise<SpendSnapshot> {
    const rows = await this.sql.query<SpendSnapshot>('usage.spend', SPEND_SQL, [
      tenantId,
      sessionId,
      periods.monthStart,
      periods.dayStart,
    ]);
    return rows.rows[0]!;
  }
}

const ZERO: LedgerAmounts = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  listCostMicros: 0,
};

type LedgerKind = 'reservation' | 'settlement' | 'release' | 'refusal';

function insert(
  db: pg.Pool | pg.PoolClient,
  owner: UsageOwner,
  kind: LedgerKind,
  reservationId: string,
  model: string,
  amounts: LedgerAmounts,
): Promise<unknown> {
  return db.query({
    name: 'usage.insert',
    text: INSERT_SQL,
    values: ledgerValues(owner, kind, reservationId, model, amounts),
  });
}

function ledgerValues(
  owner: UsageOwner,
  kind: LedgerKind,
  reservationId: string,
  model: string,
  a: LedgerAmounts,
): unknown[] {
  return [
    owner.tenantId,
    owner.namespaceId,
    owner.sessionId,
    owner.agentId,
    kind,
    reservationId,
    model,
    a.inputTokens,
    a.outputTokens,
    a.cacheReadTokens,
    a.cacheWriteTokens,
    a.listCostMicros,
  ];
}
