/** The only database surface the Postgres backend needs; a `pg.Pool` or `pg.Client` satisfies it. */
export interface SqlPort {
  query(text: string, params?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
}
