import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { MOUNTS_ROOT, type SessionMount } from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import type { FileMount } from '@agentry/harness';
import { KeyedMutex, ReadOnlyWorkspaceFs, type WorkspaceFs } from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { MountMirror } from './mount-mirror.js';

/** Host directory of a session's mounts, beside its workspace (never inside it: the workspace is persisted). */
export const MOUNTS_DIR = 'mnt';

/**
 * What the Brain owns, mirrored onto this worker for the sessions it holds: before each call the
 * session's mounts (agent files, skills, evicted outputs, plans; see SessionMount) are brought up to
 * date in `<session dir>/mnt`, which the sandbox binds read-only at /mnt and the file tools read.
 * A session that moves to another worker starts there from its sources, so nothing depends on this one.
 */
@Injectable()
export class SessionMounts implements OnApplicationShutdown {
  private readonly pool: ReturnType<typeof createSqlPool>;
  private readonly mirrors = new Map<string, MountMirror>();
  private readonly locks = new KeyedMutex();
  private readonly skillCache = new Map<string, Promise<WorkspaceFs>>();

  constructor(@Inject(WORKER_CONFIG) config: WorkerEnv) {
    this.pool = createSqlPool(config.DATABASE_URL, 2);
  }

  /** Brings the session's mirror up to date and returns the tree its file tools see at /mnt. */
  async sync(tenantId: string, sessionId: string, hostDir: string, mounts: readonly SessionMount[]): Promise<FileMount[]> {
    const key = `${tenantId}/${sessionId}`;
    return this.locks.run(key, async () => {
      let mirror = this.mirrors.get(key);
      if (!mirror) {
        mirror = new MountMirror(hostDir);
        this.mirrors.set(key, mirror);
      }
      await mirror.sync(mounts, { sql: this.pool, tenantId, skillCache: this.skillCache });
      return [{ path: MOUNTS_ROOT, fs: new ReadOnlyWorkspaceFs(mirror.fs) }];
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
