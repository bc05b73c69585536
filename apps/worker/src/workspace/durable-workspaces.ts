import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSqlPool } from '@agentry/db';
import { LOGGER, type Logger } from '@agentry/platform';
import { KeyedMutex, PostgresWorkspaceFs } from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { WorkspaceMirror } from './workspace-mirror.js';

/**
 * The durable copy of a session's Hands workspace: its own root in its own table (`hands_workspace_files`,
 * which only the worker writes), apart from the Brain's session files.
 */
function handsWorkspaceRoot(tenantId: string, sessionId: string): string {
  return `tenants/${tenantId}/hands/sessions/${sessionId}`;
}

/** Tools that never change the workspace: nothing to sync after them. */
const READ_ONLY_TOOLS = new Set(['read', 'glob', 'grep']);

interface Held {
  epoch: number;
  mirror: WorkspaceMirror;
}

/**
 * The session workspaces this worker holds, each mirrored to Postgres so it survives this worker: the
 * first call of a binding (a new epoch) restores the local directory from Postgres, and every call that
 * may have changed files syncs them back before its result is returned.
 */
@Injectable()
export class DurableWorkspaces implements OnApplicationShutdown {
  private readonly pool: ReturnType<typeof createSqlPool>;
  private readonly held = new Map<string, Held>();
  private readonly locks = new KeyedMutex();

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.pool = createSqlPool(config.DATABASE_URL, config.AGENTRY_WORKSPACE_SQL_POOL_SIZE);
  }

  /** Makes sure the local directory is the session's workspace for binding `epoch`, restoring it if not. */
  async enter(tenantId: string, sessionId: string, localDir: string, epoch: number): Promise<void> {
    const key = `${tenantId}/${sessionId}`;
    await this.locks.run(key, async () => {
      if (this.held.get(key)?.epoch === epoch) return;
      const durable = new PostgresWorkspaceFs({
        sql: this.pool,
        table: 'hands_workspace_files',
        tenantId,
        root: handsWorkspaceRoot(tenantId, sessionId),
      });
      const mirror = new WorkspaceMirror(localDir, durable, (path, why) =>
        this.logger.warn({ sessionId, path, why }, 'workspace file not persisted'),
      );
      await mirror.restore();
      this.held.set(key, { epoch, mirror });
      this.logger.info({ sessionId, epoch }, 'session workspace restored');
    });
  }

  /** After a call: persists what it changed (nothing for read-only tools). */
  async leave(tenantId: string, sessionId: string, tool: string): Promise<void> {
    if (READ_ONLY_TOOLS.has(tool)) return;
    const key = `${tenantId}/${sessionId}`;
    await this.locks.run(key, async () => this.held.get(key)?.mirror.sync());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
