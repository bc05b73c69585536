import { Injectable } from '@nestjs/common';
import {
  fromMicros,
  type Actor,
  type RpcParsedRequest,
  type UsageReport,
  type UsageSubjects,
} from '@agentry/contracts';
import { SqlPool } from '../sql/sql-pool.js';

type UsageQuery = RpcParsedRequest<typeof UsageSubjects.query>['query'];

const GROUP_COLUMNS = {
  agent: 'u.agent_id',
  environment: 's.environment_id',
  session: 'u.session_id',
  model: 'u.model',
  day: `to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
} as const;

interface SumRow {
  agent?: string | null;
  environment?: string | null;
  session?: string | null;
  model?: string | null;
  day?: string;
  requests: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costMicros: number;
}

/**
 * Settled usage from the ledger, grouped by agent, environment, session, model and/or UTC day. The ledger
 * names the session; its environment comes from the session row. Administrators see their whole tenant;
 * everyone else the namespace they act in.
 */
@Injectable()
export class UsageQueryService {
  constructor(private readonly sql: SqlPool) {}

  async query(actor: Actor, query: UsageQuery): Promise<UsageReport> {
    const where = [`u.tenant_id = $1`, `u.kind = 'settlement'`];
    const values: unknown[] = [actor.tenantId];
    const add = (clause: (n: number) => string, value: unknown) => {
      values.push(value);
      where.push(clause(values.length));
    };
    if (actor.role !== 'admin') add((n) => `u.namespace_id = $${n}`, actor.namespaceId);
    if (query.agent_id) add((n) => `u.agent_id = $${n}`, query.agent_id);
    if (query.environment_id) add((n) => `s.environment_id = $${n}`, query.environment_id);
    if (query.session_id) add((n) => `u.session_id = $${n}`, query.session_id);
    if (query.starting_at) add((n) => `u.created_at >= $${n}::timestamptz`, query.starting_at);
    if (query.ending_at) add((n) => `u.created_at < $${n}::timestamptz`, query.ending_at);
    const keys = [...new Set(query.group_by)];
    const groups = keys.map((key) => `${GROUP_COLUMNS[key]} AS "${key}"`);
    const positions = keys.map((_, i) => i + 1).join(', ');
    // The statement's text varies with the filters and groups, so it is not a named (prepared) one.
    const rows = await this.sql.pool.query<SumRow>(
      `SELECT ${[
        ...groups,
        `count(*)::int AS requests`,
        `coalesce(sum(u.input_tokens), 0)::float8 AS input`,
        `coalesce(sum(u.output_tokens), 0)::float8 AS output`,
        `coalesce(sum(u.cache_read_tokens), 0)::float8 AS "cacheRead"`,
        `coalesce(sum(u.cache_write_tokens), 0)::float8 AS "cacheWrite"`,
        `coalesce(sum(u.list_cost_micros), 0)::float8 AS "costMicros"`,
      ].join(', ')}
       FROM usage_ledger u LEFT JOIN sessions s ON s.id = u.session_id WHERE ${where.join(' AND ')}
       ${groups.length ? `GROUP BY ${positions} ORDER BY ${positions}` : ''}`,
      values,
    );
    return {
      data: rows.rows
        .filter((row) => groups.length > 0 || row.requests > 0)
        .map((row) => toUsageRow(row, keys)),
    };
  }
}

function toUsageRow(row: SumRow, keys: UsageQuery['group_by']): UsageReport['data'][number] {
  return {
    ...(keys.includes('agent') ? { agent_id: row.agent ?? null } : {}),
    ...(keys.includes('environment') ? { environment_id: row.environment ?? null } : {}),
    ...(keys.includes('session') ? { session_id: row.session ?? null } : {}),
    ...(keys.includes('model') ? { model: row.model ?? null } : {}),
    ...(keys.includes('day') && row.day ? { day: row.day } : {}),
    model_requests: row.requests,
    input_tokens: row.input,
    output_tokens: row.output,
    cache_read_input_tokens: row.cacheRead,
    cache_creation_input_tokens: row.cacheWrite,
    list_cost: { amount: fromMicros(row.costMicros), currency: 'USD' as const },
  };
}
