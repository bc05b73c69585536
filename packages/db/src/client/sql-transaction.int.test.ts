import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createSqlPool } from './sql-pool.factory.js';
import { withSqlTransaction } from './sql-transaction.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

describe('withSqlTransaction', () => {
  let pool: pg.Pool;
  let killer: pg.Client;

  beforeAll(async () => {
    pool = createSqlPool(url, 2);
    killer = new pg.Client({ connectionString: url });
    await killer.connect();
  });

  afterAll(async () => {
    await killer.end();
    await pool.end();
  });

  it('survives its connection being killed between two statements: the work rejects, the process and the pool live on', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const outcome = withSqlTransaction(pool, async (client) => {
        const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await killer.query('SELECT pg_terminate_backend($1)', [pid]);
        // The server closes the socket while no statement is running: the client emits `error`.
        await new Promise((resolve) => client.once('end', resolve));
        await client.query('SELECT 1');
      });
      await expect(outcome).rejects.toThrow(/terminat|not queryable/i);
      expect(uncaught).toEqual([]);
      const after = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(after.rows[0]!.one).toBe(1);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('commits what the work wrote and rolls back when it throws', async () => {
    const table = `sql_tx_${Date.now()}`;
    await pool.query(`CREATE TABLE ${table} (v int)`);
    try {
      await withSqlTransaction(pool, (client) => client.query(`INSERT INTO ${table} VALUES (1)`));
      await expect(
        withSqlTransaction(pool, async (client) => {
          await client.query(`INSERT INTO ${table} VALUES (2)`);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const rows = await pool.query<{ v: number }>(`SELECT v FROM ${table} ORDER BY v`);
      expect(rows.rows.map((r) => r.v)).toEqual([1]);
    } finally {
      await pool.query(`DROP TABLE ${table}`);
    }
  });
});
