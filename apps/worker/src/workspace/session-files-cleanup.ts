import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { SessionSandboxes } from '../hands/session-sandboxes.js';
import { SandboxCaps } from '../sandbox/sandbox-caps.js';
import { WorkspaceQuota } from '../sandbox/workspace-quota.js';
import { DurableWorkspaces } from './durable-workspaces.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Sessions looked up, and orphaned copies removed, per round trip of a sweep. */
const SWEEP_BATCH = 200;

/**
 * Removes what a session leaves on the Hands: its sandbox, its directory on this worker and its durable copy.
 * A deleted session is removed when its end is heard; a sweep (at start and every
 * AGENTRY_HANDS_ORPHAN_SWEEP_MS) finds what a crash or a missed message left behind (with the blank
 * workspace images a crashed worker kept ready).
 */
@Injectable()
export class SessionFilesCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly sandboxes: SessionSandboxes,
    private readonly durable: DurableWorkspaces,
    private readonly caps: SandboxCaps,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.AGENTRY_HANDS_ORPHAN_SWEEP_MS;
    if (every === 0) return;
    this.sweeping = this.sweep();
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.sweep());
    }, every).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** A deleted session: its sandbox closed, its directory here removed, its durable copy forgotten. */
  async removeSession(tenantId: string, sessionId: string): Promise<void> {
    await this.sandboxes.close(tenantId, sessionId);
    const dir = this.sandboxes.dirOf(tenantId, sessionId);
    await WorkspaceQuota.discard(join(dir, 'workspace'));
    await rm(dir, { recursive: true, force: true });
    await this.durable.forget(tenantId, sessionId);
  }

  /** Removes session directories and durable copies whose session no longer exists; never throws. */
  async sweep(): Promise<{ directories: number; copies: number }> {
    const removed = { directories: 0, copies: 0 };
    try {
      const local = await this.localSessions();
      for (let i = 0; i < local.length; i += SWEEP_BATCH) {
        const batch = local.slice(i, i + SWEEP_BATCH);
        const missing = await this.durable.missingSessions(batch.map((s) => s.sessionId));
        for (const { tenantId, sessionId } of batch.filter((s) => missing.has(s.sessionId))) {
          // One directory that cannot go (yet) does not keep the others.
          const gone = await this.removeSession(tenantId, sessionId).then(
            () => true,
            (err: unknown) =>
              this.logger.warn({ sessionId, err }, 'an orphaned session directory was not removed'),
          );
          if (gone) removed.directories++;
        }
      }
      for (let orphans = await this.durable.orphanedCopies(SWEEP_BATCH); orphans.length > 0;) {
        for (const { tenantId, sessionId } of orphans) await this.durable.forget(tenantId, sessionId);
        removed.copies += orphans.length;
        orphans = await this.durable.orphanedCopies(SWEEP_BATCH);
      }
      // Blank workspace images a crashed worker of this host kept ready.
      await this.caps.workspaceImages?.removeAbandoned();
      if (removed.directories + removed.copies > 0)
        this.logger.info(removed, 'orphaned session files removed');
    } catch (err) {
      this.logger.warn({ err }, 'the sweep for orphaned session files failed; the next one tries again');
    }
    return removed;
  }

  /** The session directories on this worker's disk (`<root>/<tenant>/<session>`). */
  private async localSessions(): Promise<Array<{ tenantId: string; sessionId: string }>> {
    const root = this.config.AGENTRY_WORKDIR_ROOT;
    const sessions: Array<{ tenantId: string; sessionId: string }> = [];
    for (const tenantId of await readdir(root).catch(() => [] as string[])) {
      if (!SAFE_ID.test(tenantId)) continue;
      for (const sessionId of await readdir(join(root, tenantId)).catch(() => [] as string[]))
        if (SAFE_ID.test(sessionId)) sessions.push({ tenantId, sessionId });
    }
    return sessions;
  }
}
