/** A statement's rows, typed by whoever reads them. */
type SqlResult = Promise<{ rows: unknown[]; rowCount: number | null }>;

/** The database surface of the skill and mount readers; a `pg.Pool` or `pg.Client` satisfies it. */
export interface SqlPort {
  query(text: string, params?: unknown[]): SqlResult;
}

/**
 * The Postgres backend's database surface: named statements, parsed and planned once per connection
 * rather than on every call. A `pg.Pool` or `pg.Client` satisfies it.
 */
export interface NamedSqlPort {
  query(statement: { name: string; text: string; values: unknown[] }): SqlResult;
}
