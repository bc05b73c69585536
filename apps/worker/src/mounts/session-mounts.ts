import { join } from 'node:path';
import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { isWritableMount, MOUNTS_ROOT, SessionResourceSubjects, type SessionMount } from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import type { FileMount } from '@agentry/harness';
import { MountContentClient, RpcClient } from '@agentry/platform';
import {
  KeyedMutex,
  LocalWorkspaceFs,
  mountPrefix,
  ReadOnlyWorkspaceFs,
  type MountContentReader,
  type WorkspaceFs,
} from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { MountMirror } from './mount-mirror.js';

/** Host directory of a session's mounts, beside its workspace (never inside it: the workspace is persisted). */
export const MOUNTS_DIR = 'mnt';

/** Without a control client (a worker run alone), only workspace mounts can be opened. */
const NO_CONTENT: MountContentReader = {
  file: () => Promise.reject(new Error('no control client to read mounted files from')),
  memories: () => Promise.reject(new Error('no control client to read memory stores from')),
  skillVersion: () => Promise.reject(new Error('no control client to read skill versions from')),
};

/** What one call of a session sees: the trees its file tools open, and the writable ones `bash` gets bound. */
export interface SyncedMounts {
  files: FileMount[];
  writableBinds: Array<{ host: string; sandbox: string }>;
}

interface HeldMirror {
  mirror: MountMirror;
  hostDir: string;
  mounts: readonly SessionMount[];
}

/**
 * What the Brain owns, mirrored onto this worker for the sessions it holds: before each call that can see
 * them (see reachesMounts) the session's mounts (agent files, skills, evicted outputs, plans, files, memory
 * stores; see SessionMount) are brought up to date in `<session dir>/mnt`, which the sandbox binds read-only at /mnt and the file
 * tools read. A memory store mounted read-write is bound writable over it, and what the call changed
 * there is written back to the store after the call (`writeBack`).
 * A session that moves to another worker starts there from its sources, so nothing depends on this one.
 */
@Injectable()
export class SessionMounts implements OnApplicationShutdown {
  private readonly pool: ReturnType<typeof createSqlPool>;
  private readonly mirrors = new Map<string, HeldMirror>();
  private readonly locks = new KeyedMutex();
  private readonly skillCache = new Map<string, Promise<WorkspaceFs>>();
  /** Files, memory stores and skill versions come from control, which owns them. */
  private readonly content: MountContentReader;

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerEnv,
    @Optional() private readonly rpc?: RpcClient,
  ) {
    // A call's sync lists its mounts' sources at once: a plain session has three (agent, tool results, plans).
    this.pool = createSqlPool(config.DATABASE_URL, 4);
    this.content = rpc ? new MountContentClient(rpc) : NO_CONTENT;
  }

  /** Brings the session's mirror up to date and returns the trees its tools see under /mnt. */
  async sync(
    tenantId: string,
    sessionId: string,
    hostDir: string,
    mounts: readonly SessionMount[],
  ): Promise<SyncedMounts> {
    const key = `${tenantId}/${sessionId}`;
    return this.locks.run(key, async () => {
      const held = this.mirrors.get(key) ?? { mirror: new MountMirror(hostDir), hostDir, mounts };
      held.mounts = mounts;
      this.mirrors.set(key, held);
      await held.mirror.sync(mounts, {
        sql: this.pool,
        content: this.content,
        tenantId,
        skillCache: this.skillCache,
      });
      const files: FileMount[] = [{ path: MOUNTS_ROOT, fs: new ReadOnlyWorkspaceFs(held.mirror.fs) }];
      const writableBinds: SyncedMounts['writableBinds'] = [];
      for (const mount of mounts) {
        if (mount.source.type !== 'memory_store') continue;
        const tree = new LocalWorkspaceFs({ root: join(hostDir, mountPrefix(mount)) });
        if (isWritableMount(mount)) {
          files.push({ path: mount.path, fs: tree });
          writableBinds.push({ host: join(hostDir, mountPrefix(mount)), sandbox: mount.path });
        } else
          files.push({
            path: mount.path,
            fs: new ReadOnlyWorkspaceFs(tree, `the memory store at ${mount.path} is mounted read-only`),
          });
      }
      return { files, writableBinds };
    });
  }

  /**
   * Writes what the last call changed in the session's read-write memory stores back to them (each change a
   * new memory version attributed to the session). Returns what could not be written, for the tool result.
   */
  async writeBack(tenantId: string, sessionId: string): Promise<string[]> {
    const key = `${tenantId}/${sessionId}`;
    return this.locks.run(key, async () => {
      const held = this.mirrors.get(key);
      if (!held || !this.rpc) return [];
      const problems: string[] = [];
      for (const mount of held.mounts) {
        if (mount.source.type !== 'memory_store' || !isWritableMount(mount)) continue;
        const changes = await held.mirror.changesOf(mount);
        if (changes.length === 0) continue;
        try {
          await this.rpc.request(SessionResourceSubjects.writeMemories, {
            tenantId,
            sessionId,
            memoryStoreId: mount.source.storeId,
            changes: changes.map((c) => ({
              path: `/${c.path}`,
              content: c.content,
              base_content_sha256: c.base,
            })),
          });
          held.mirror.settled(mount, changes);
        } catch (error) {
          problems.push(
            `The changes under ${mount.path} were not saved to the memory store: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      return problems;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
