import type pg from 'pg';

/**
 * Runs `work` in a transaction on a connection checked out of `pool`.
 *
 * A checked-out pg client has no `error` listener: if Postgres goes away between two statements,
 * the client emits `error` and the process dies. The listener added here keeps the process up; the
 * failed statement rejects `work`, and the connection is released as broken so the pool drops it.
 */
export async function withSqlTransaction<R>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<R>,
): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!broken) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
