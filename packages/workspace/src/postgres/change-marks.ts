import type { NamedSqlPort } from './sql-port.js';
import type { WorkspaceTable } from './workspace-tables.js';

/**
 * Per root, its row count and the sum of its rows' `xmin` (the id of the transaction that wrote each row
 * version): any insert, update or delete under a root changes one of the two, since every write leaves its
 * row with a newer transaction id, and nothing else moves them.
 */
const changeMarkSql = (table: WorkspaceTable) =>
  `SELECT root, count(*)::text AS n, sum(xmin::text::bigint)::text AS x FROM ${table}
    WHERE tenant_id = $1 AND root = ANY($2::text[]) GROUP BY root ORDER BY root`;

/**
 * One value for these workspace roots that differs whenever anything was written under any of them since it
 * was last taken: a caller that copies the trees asks for it and copies again only when it moved.
 */
export async function workspaceChangeMark(
  sql: NamedSqlPort,
  table: WorkspaceTable,
  tenantId: string,
  roots: readonly string[],
): Promise<string> {
  const { rows } = await sql.query({
    name: `workspace.${table}.changeMark`,
    text: changeMarkSql(table),
    values: [tenantId, roots],
  });
  return (rows as Array<{ root: string; n: string; x: string }>)
    .map((r) => `${r.root}:${r.n}:${r.x}`)
    .join('|');
}
