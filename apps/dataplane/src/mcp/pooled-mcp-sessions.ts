import type { McpManager } from '@agentry/harness';
import type { Logger } from '@agentry/platform';
import type { EndedSessionsRepository } from './ended-sessions.repository.js';

/** The open MCP servers of one session, as a pool keeps them. */
export interface PooledServers {
  manager: McpManager;
  /** Turns listing tools and tool calls under way: the idle timer never closes servers they use. */
  busy: number;
  idleTimer?: NodeJS.Timeout;
}

export interface PooledMcpSessionsOptions {
  /** What the servers are, for log lines ("MCP connections", "tools.json MCP servers"). */
  what: string;
  idleTimeoutMs: number;
  endedCheckMs: number;
  endedSessions: EndedSessionsRepository;
  logger: Logger;
}

/**
 * The life cycle both MCP pools share: one set of servers per session, opened once however many callers
 * ask at the same time, kept across turns, closed after `idleTimeoutMs` without use or once the session
 * has ended (looked for every `endedCheckMs`), and all closed when the process stops.
 */
export class PooledMcpSessions<S extends PooledServers> {
  private readonly sessions = new Map<string, S>();
  private readonly opening = new Map<string, Promise<S>>();
  private endedCheck: NodeJS.Timeout | undefined;

  constructor(private readonly options: PooledMcpSessionsOptions) {}

  get size(): number {
    return this.sessions.size;
  }

  current(sessionId: string): S | undefined {
    return this.sessions.get(sessionId);
  }

  /** The session's servers when `fits` them; otherwise they are closed and a set is opened with `open`. */
  async obtain(sessionId: string, fits: (current: S) => boolean, open: () => S | Promise<S>): Promise<S> {
    const current = this.sessions.get(sessionId);
    if (current && fits(current)) return current;
    if (current) await this.close(sessionId);
    let pending = this.opening.get(sessionId);
    if (!pending) {
      pending = Promise.resolve()
        .then(open)
        .then((session) => {
          this.sessions.set(sessionId, session);
          return session;
        })
        .finally(() => this.opening.delete(sessionId));
      this.opening.set(sessionId, pending);
    }
    return pending;
  }

  async close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    this.disarm(session);
    await session.manager.close();
  }

  start(): void {
    this.endedCheck = setInterval(() => void this.closeEnded(), this.options.endedCheckMs);
    this.endedCheck.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.endedCheck);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  /** Closes the servers of pooled sessions that have ended; a failed look is tried again next time. */
  async closeEnded(): Promise<void> {
    if (this.sessions.size === 0) return;
    try {
      const ended = await this.options.endedSessions.endedAmong([...this.sessions.keys()]);
      await Promise.all(ended.map((id) => this.close(id)));
    } catch (error) {
      this.options.logger.warn(
        { err: (error as Error).message },
        `could not look for ended sessions holding ${this.options.what}`,
      );
    }
  }

  /** Counts work on a session's servers, so the idle timer never closes them under it. */
  async whileBusy<T>(sessionId: string, session: S, work: () => Promise<T>): Promise<T> {
    session.busy += 1;
    this.disarm(session);
    try {
      return await work();
    } finally {
      session.busy -= 1;
      this.arm(sessionId, session);
    }
  }

  private arm(sessionId: string, session: S): void {
    this.disarm(session);
    if (session.busy > 0 || this.sessions.get(sessionId) !== session) return;
    session.idleTimer = setTimeout(() => {
      if (this.sessions.get(sessionId) !== session || session.busy > 0) return;
      this.options.logger.debug({ sessionId }, `closing idle ${this.options.what}`);
      void this.close(sessionId);
    }, this.options.idleTimeoutMs);
    session.idleTimer.unref();
  }

  private disarm(session: S): void {
    if (session.idleTimer) clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
  }
}
