import type { TestDatabase } from '@agentry/testing';

/**
 * Row count and latest `updated_at` of every table (but `exclude`), as one comparable string: what a
 * refused request must leave as it found it. Tables the services write on their own are excluded.
 */
export function databaseSnapshot(db: TestDatabase, exclude: readonly string[] = []): () => Promise<string> {
  let query = '';
  return async () => {
    if (!query) {
      const tables = await db.prisma.$queryRawUnsafe<Array<{ table_name: string; stamped: boolean }>>(
        `SELECT t.table_name::text AS table_name, EXISTS (SELECT 1 FROM information_schema.columns c
           WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'updated_at') AS stamped
         FROM information_schema.tables t WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
           AND t.table_name <> ALL ($1::text[]) ORDER BY 1`,
        ['_prisma_migrations', ...exclude],
      );
      query = tables
        .map(
          (t) =>
            `SELECT '${t.table_name}' AS t, count(*)::text || '@' || ${t.stamped ? `coalesce(max(updated_at)::text, '')` : `''`} AS v FROM "${t.table_name}"`,
        )
        .join(' UNION ALL ');
    }
    const rows = await db.prisma.$queryRawUnsafe<Array<{ t: string; v: string }>>(query);
    return rows
      .map((r) => `${r.t}=${r.v}`)
      .sort()
      .join('\n');
  };
}

/** The entries of `after` that `before` did not have (what changed, for a failure message). */
export function snapshotDiff(before: string, after: string): string {
  const old = new Set(before.split('\n'));
  return after
    .split('\n')
    .filter((entry) => !old.has(entry))
    .join(', ');
}
