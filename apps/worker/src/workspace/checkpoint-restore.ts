import { Controller, Inject, type OnApplicationShutdown } from '@nestjs/common';
import { AppError, CheckpointRestoreSubject as S, type RpcParsedRequest } from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import { RpcHandler } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { CHECKPOINT_RESTORE_SQL as Q } from './checkpoint-restore.sql.js';
import { handsRoots } from './hands-roots.js';

/**
 * Writes a checkpoint's workspace as a session's durable copy (a fork's new session, or a session rolled
 * back), in one transaction. It runs at a turn boundary, when no call of the session writes the copy; the
 * worker holding the session restores its local directory from it under the next binding epoch.
 */
@Controller()
export class CheckpointRestoreHandler implements OnApplicationShutdown {
  private readonly pool;

  constructor(@Inject(WORKER_CONFIG) config: WorkerEnv) {
    this.pool = createSqlPool(config.DATABASE_URL, 2);
  }

  @RpcHandler(S)
  async restore({ tenantId, sessionId, checkpointId }: RpcParsedRequest<typeof S>) {
    const roots = handsRoots(tenantId, sessionId);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(Q.lockBlobs, [tenantId]);
      if ((await client.query(Q.exists, [tenantId, checkpointId])).rowCount !== 1)
        throw new AppError('NOT_FOUND', `checkpoint: ${checkpointId} not found`);
      await client.query(Q.clearChunks, [roots.workspace, roots.shellState]);
      await client.query(Q.clearFiles, [roots.workspace, roots.shellState]);
      const params = [tenantId, roots.workspace, roots.shellState, checkpointId];
      const { rowCount } = await client.query(Q.files, params);
      await client.query(Q.chunks, params);
      await client.query('COMMIT');
      return { entries: rowCount ?? 0 };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
