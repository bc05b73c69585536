interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** What can run a statement with parameters: a `pg.Pool` or `pg.Client`. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * How Postgres would read `relation` to run `sql` with `params`: one "<node type> <index>" per scan of it in
 * the plan (`Index Scan sessions_pkey`, `Seq Scan`), writes left out. Tests use it to hold a statement to
 * the index it must use, whatever the planner's statistics say.
 */
export async function scansOf(
  db: Queryable,
  relation: string,
  sql: string,
  params: unknown[],
): Promise<string[]> {
  const explained = await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const plan = (explained.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan;
  const scans: string[] = [];
  const visit = (node: PlanNode) => {
    if (node['Relation Name'] === relation && node['Node Type'] !== 'ModifyTable')
      scans.push(`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim());
    node.Plans?.forEach(visit);
  };
  visit(plan);
  return scans;
}
