import pg from 'pg';

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `url` with its database name replaced by `database`. */
export function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/**
 * Server-level operations (create, copy, drop databases; advisory locks) over one dedicated
 * connection. Used by the launcher and test fixtures, never by request handling.
 */
export class DatabaseAdmin {
  private constructor(private readonly client: pg.Client) {}

  /** Connects to `url` (usually the `postgres` maintenance database). */
  static async connect(url: string): Promise<DatabaseAdmin> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new DatabaseAdmin(client);
  }

  async databaseExists(name: string): Promise<boolean> {
    const result = await this.client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Creates `name`, as a copy of `template` when given (the template must have no connections). */
  async createDatabase(name: string, options: { template?: string } = {}): Promise<void> {
    const template = options.template ? ` TEMPLATE ${quoteName(options.template)}` : '';
    await this.client.query(`CREATE DATABASE ${quoteName(name)}${template}`);
  }

  async renameDatabase(from: string, to: string): Promise<void> {
    await this.client.query(`ALTER DATABASE ${quoteName(from)} RENAME TO ${quoteName(to)}`);
  }

  /** Drops `name` if it exists, ending any sessions still connected to it. */
  async dropDatabase(name: string): Promise<void> {
    await this.client.query(`DROP DATABASE IF EXISTS ${quoteName(name)} WITH (FORCE)`);
  }

  /** Databases whose name starts with `prefix`. */
  async listDatabases(prefix: string): Promise<string[]> {
    const result = await this.client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname',
      [prefix],
    );
    return result.rows.map((r) => r.datname);
  }

  /** Runs `body` while holding a server-wide advisory lock named `key`; other holders wait. */
  async withAdvisoryLock<T>(key: string, body: () => Promise<T>): Promise<T> {
    await this.client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await body();
    } finally {
      await this.client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

// Database names are interpolated into DDL, so only plain lower-case identifiers are accepted.
function quoteName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}
