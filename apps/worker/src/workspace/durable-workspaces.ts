import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSqlPool } from '@agentry/db';
import { LOGGER, platformMetrics, type Logger } from '@agentry/platform';
import { KeyedMutex } from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { WORKER_ID } from '../hands/worker-identity.js';
import { DurableCopy, FencedOutError, type HandsBindingToken, type SqlPort } from './durable-copy.js';
import { DURABLE_COPY_SQL } from './durable-copy.sql.js';
import { handsRoots, SHELL_STATE_FILES } from './hands-roots.js';
import { WorkspaceMirror } from './workspace-mirror.js';

/** Tools that never change the workspace: nothing to sync after them. */
const READ_ONLY_TOOLS = new Set(['read', 'glob', 'grep']);
/** The one tool that runs the session's shell, whose carried-over state only it changes. */
const SHELL_TOOL = 'bash';

/** A session's local directories on this worker: its workspace and its shell's carried-over state. */
export interface SessionDirs {
  workspace: string;
  shellState: string;
}

interface Held {
  epoch: number;
  workspace: WorkspaceMirror;
  shellState: WorkspaceMirror;
}

/**
 * The session workspaces this worker holds, each mirrored to Postgres so it survives this worker. The first
 * call of a binding (a new epoch) claims the session's fence and restores the local directories from
 * Postgres; every call that may have changed files stores what changed before its result is returned. A
 * worker that lost the session (a newer binding claimed it) has its saves refused: logged and counted.
 */
@Injectable()
export class DurableWorkspaces implements OnApplicationShutdown {
  private readonly pool: SqlPort & { end(): Promise<void> };
  private readonly held = new Map<string, Held>();
  /** Sessions that came from another worker whose model has not been told yet (see `enter`). */
  private readonly untoldMoves = new Set<string>();
  private readonly locks = new KeyedMutex();
  private readonly workerId = WORKER_ID;

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.pool = createSqlPool(config.DATABASE_URL, config.AGENTRY_WORKSPACE_SQL_POOL_SIZE);
  }

  /**
   * Makes the local directories the session's workspace for binding `epoch`, restoring them if not yet.
   * `moved` says the session came from another worker: its sandbox was replaced. It is said once, to the
   * first caller that tells the model (a tool call); one that does not (the sandbox opened ahead of a
   * call, an MCP server started) leaves it for the next that does.
   */
  async enter(
    tenantId: string,
    sessionId: string,
    dirs: SessionDirs,
    epoch: number,
    { tellsModel }: { tellsModel: boolean } = { tellsModel: true },
  ): Promise<{ moved: boolean }> {
    const key = `${tenantId}/${sessionId}`;
    return this.locks.run(key, async () => {
      if (this.held.get(key)?.epoch === epoch) return { moved: tellsModel && this.untoldMoves.delete(key) };
      const token: HandsBindingToken = { tenantId, sessionId, epoch, workerId: this.workerId };
      const { claimed, previousWorker } = await DurableCopy.claim(this.pool, token);
      if (!claimed) throw new FencedOutError(sessionId);
      const roots = handsRoots(tenantId, sessionId);
      const workspace = new WorkspaceMirror(
        dirs.workspace,
        new DurableCopy(this.pool, token, roots.workspace),
      );
      const shellState = new WorkspaceMirror(
        dirs.shellState,
        new DurableCopy(this.pool, token, roots.shellState),
        (path) => SHELL_STATE_FILES.has(path),
        true,
      );
      this.held.delete(key);
      await workspace.restore();
      await shellState.restore();
      this.held.set(key, { epoch, workspace, shellState });
      const moved = previousWorker !== null && previousWorker !== this.workerId;
      this.logger.info({ sessionId, epoch, moved }, 'session workspace restored');
      if (moved && !tellsModel) this.untoldMoves.add(key);
      else this.untoldMoves.delete(key);
      return { moved: moved && tellsModel };
    });
  }

  /** The call `enter` told of a move did not run after all (a copy answered otherwise): the next call says it. */
  stillUntold(tenantId: string, sessionId: string): void {
    this.untoldMoves.add(`${tenantId}/${sessionId}`);
  }

  /**
   * Stores what the call changed. `written`: the one workspace file it wrote (a `write` or `edit`), so only
   * that path is looked at; otherwise the whole tree is.
   */
  async leave(tenantId: string, sessionId: string, tool: string, written?: string): Promise<void> {
    if (READ_ONLY_TOOLS.has(tool)) return;
    const key = `${tenantId}/${sessionId}`;
    await this.locks.run(key, async () => {
      const held = this.held.get(key);
      if (!held) return;
      try {
        if (!written || !(await held.workspace.syncPath(written))) await held.workspace.sync();
        if (tool === SHELL_TOOL) await held.shellState.sync();
      } catch (err) {
        if (!(err instanceof FencedOutError)) throw err;
        // The session moved on while this call ran (this worker frozen or cut off): its files are not the
        // session's any more, and the next binding to this worker restores them afresh.
        this.held.delete(key);
        platformMetrics().handsSavesRefused.add(1);
        this.logger.warn(
          { sessionId, epoch: held.epoch, workerId: this.workerId },
          'session workspace save refused: another worker holds the session',
        );
      }
    });
  }

  /** Forgets the session's durable copy (deleted session): its rows, chunks and fence. */
  async forget(tenantId: string, sessionId: string): Promise<void> {
    this.held.delete(`${tenantId}/${sessionId}`);
    this.untoldMoves.delete(`${tenantId}/${sessionId}`);
    await DurableCopy.forget(this.pool, tenantId, sessionId, Object.values(handsRoots(tenantId, sessionId)));
  }

  /** Of these session ids, the ones whose session no longer exists. */
  async missingSessions(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const { rows } = await this.pool.query<{ id: string }>(DURABLE_COPY_SQL.missingSessions, [sessionIds]);
    return new Set(rows.map((r) => r.id));
  }

  /** Durable copies left by sessions deleted while no worker heard it, `limit` at a time. */
  async orphanedCopies(limit: number): Promise<Array<{ tenantId: string; sessionId: string }>> {
    const { rows } = await this.pool.query<{ tenant_id: string; session_id: string }>(
      DURABLE_COPY_SQL.orphanedFences,
      [limit],
    );
    return rows.map((r) => ({ tenantId: r.tenant_id, sessionId: r.session_id }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
