import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import type { SandboxCredential, SandboxNetworking } from '@agentry/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { EgressCa } from '../sandbox/egress-ca.js';
import { SandboxCaps } from '../sandbox/sandbox-caps.js';
import { SessionSandbox } from '../sandbox/session-sandbox.js';
import { StepTimings } from '../sandbox/step-timings.js';
import { SandboxImages } from '../userland/sandbox-images.js';
import type { SessionDirs } from '../workspace/durable-workspaces.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The sessions this worker holds, one sandbox each, keyed by (tenant, session). A sandbox idle for
 * AGENTRY_SANDBOX_IDLE_MS is closed (its files stay) and opened again by the next call.
 */
@Injectable()
export class SessionSandboxes implements OnModuleDestroy {
  private readonly open = new Map<string, Promise<SessionSandbox>>();
  /** Sandboxes being closed: a new one for the same session waits until its cgroup, mounts and socket are gone. */
  private readonly closing = new Map<string, Promise<void>>();
  /** Writes into a session's host workspace in progress (see writeOutsideOpening), which an opening waits for. */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;
  private ca: Promise<EgressCa | null> | undefined;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly images: SandboxImages,
    private readonly caps: SandboxCaps,
  ) {
    this.sweeper = setInterval(
      () => void this.closeIdle(),
      Math.min(60_000, config.AGENTRY_SANDBOX_IDLE_MS),
    ).unref();
  }

  dirOf(tenantId: string, sessionId: string): string {
    if (!SAFE_ID.test(tenantId) || !SAFE_ID.test(sessionId)) throw new Error('invalid tenant or session id');
    return join(this.config.AGENTRY_WORKDIR_ROOT, tenantId, sessionId);
  }

  /** The session's directories the durable copy keeps: its workspace and the shell's state (session-sandbox.ts). */
  durableDirsOf(tenantId: string, sessionId: string): SessionDirs {
    const dir = this.dirOf(tenantId, sessionId);
    return { workspace: join(dir, 'workspace'), shellState: join(dir, 'shell') };
  }

  /**
   * Resolves once a sandbox of the session being opened (ahead of its first call, see HandsPrepareListener)
   * is open or has failed: opening may mount the workspace's quota image over the session's directory, so
   * nothing may write there (a repository clone) until it is done.
   */
  async settled(tenantId: string, sessionId: string): Promise<void> {
    await this.open.get(`${tenantId}/${sessionId}`)?.catch(() => undefined);
  }

  /**
   * Runs `write` into the session's host workspace (a repository clone) with no sandbox opening over it: an
   * opening in progress is waited for first, and one asked for while `write` runs (the turn's warm-up may
   * arrive after the call) waits for it, then takes what it wrote into the workspace image.
   */
  async writeOutsideOpening<T>(tenantId: string, sessionId: string, write: () => Promise<T>): Promise<T> {
    const key = `${tenantId}/${sessionId}`;
    await this.open.get(key)?.catch(() => undefined);
    const running = write();
    markWhileRunning(this.writing, key, running);
    return running;
  }

  /**
   * Runs `call` in the session's sandbox, opening it first if this worker does not hold it yet. `credentials`
   * null leaves the sandbox those it has (a call that starts no process needs none).
   */
  async use<T>(
    tenantId: string,
    sessionId: string,
    networking: SandboxNetworking,
    credentials: readonly SandboxCredential[] | null,
    call: (sandbox: SessionSandbox) => Promise<T>,
  ): Promise<T> {
    const sandbox = await this.opening(tenantId, sessionId, networking, () =>
      Promise.resolve(credentials ?? []),
    );
    return sandbox.use(networking, credentials, this.config, () => call(sandbox));
  }

  /**
   * Opens the session's sandbox ahead of its first call (see HandsPrepareListener), unless it is open or
   * being opened. The credentials and `workspaceReady` (the workspace's restore) are waited for only where
   * the open needs them, so its other steps (image, egress proxy, cgroup) go on meanwhile.
   */
  prepare(
    tenantId: string,
    sessionId: string,
    networking: SandboxNetworking,
    credentials: () => Promise<readonly SandboxCredential[]>,
    workspaceReady: Promise<unknown>,
  ): Promise<SessionSandbox> {
    return this.opening(tenantId, sessionId, networking, credentials, workspaceReady);
  }

  /** The session's sandbox, open or being opened, or opened now: one pending open per session. */
  private opening(
    tenantId: string,
    sessionId: string,
    networking: SandboxNetworking,
    credentials: () => Promise<readonly SandboxCredential[]>,
    workspaceReady: Promise<unknown> = Promise.resolve(),
  ): Promise<SessionSandbox> {
    const key = `${tenantId}/${sessionId}`;
    const held = this.open.get(key);
    if (held) return held;
    // Registered before anything is awaited, so concurrent first calls share one sandbox (and one proxy socket).
    const dir = this.dirOf(tenantId, sessionId);
    const closed = this.closing.get(key) ?? Promise.resolve();
    const written = this.writing.get(key) ?? Promise.resolve();
    const ready = Promise.all([workspaceReady, written]);
    // Its failure is the open's (the quota step throws it); an open that fails before that step never reads it.
    ready.catch(() => undefined);
    const timings = new StepTimings();
    // Looked up while the open makes the cgroup and mounts the workspace, which need none of it.
    const environment = Promise.all([
      timings.time('egressCa', () => this.egressCa()),
      timings.time('image', () => this.images.imageFor(tenantId, sessionId)),
      timings.time('vault', credentials),
    ]).then(([ca, image, vault]) => ({ ca, credentials: vault, ...image }));
    environment.catch(() => undefined);
    const pending = timings
      .time('closing', () => closed)
      .then(() =>
        SessionSandbox.open(key, dir, networking, this.config, this.clock, {
          environment,
          caps: this.caps,
          timings,
          workspaceReady: ready,
        }),
      )
      .then((sandbox) => {
        this.logger.debug({ sessionId, ...timings.summary() }, 'session sandbox opened');
        return sandbox;
      });
    this.open.set(key, pending);
    pending.catch(() => this.open.delete(key));
    return pending;
  }

  /**
   * The installation's egress CA, loaded (or made and kept) once. Without it sandboxes still run, but HTTPS
   * requests get no credentials swapped in.
   */
  private egressCa(): Promise<EgressCa | null> {
    this.ca ??= EgressCa.load(
      {
        certFile:
          this.config.AGENTRY_SANDBOX_CA_CERT_FILE ??
          join(this.config.AGENTRY_WORKDIR_ROOT, '.egress-ca', 'ca.crt'),
        keyFile:
          this.config.AGENTRY_SANDBOX_CA_KEY_FILE ??
          join(this.config.AGENTRY_WORKDIR_ROOT, '.egress-ca', 'ca.key'),
      },
      this.clock,
    ).catch((err: unknown) => {
      this.logger.error(
        { err },
        'the sandbox egress CA could not be loaded; HTTPS requests get no credentials',
      );
      this.ca = undefined;
      return null;
    });
    return this.ca;
  }

  /** The sessions whose sandbox this worker holds now (for its heartbeat). */
  held(): Array<{ tenantId: string; sessionId: string }> {
    return [...this.open.keys()].map((key) => {
      const [tenantId = '', sessionId = ''] = key.split('/');
      return { tenantId, sessionId };
    });
  }

  /** Closes the session's sandbox if this worker holds one (the session was deleted). */
  async close(tenantId: string, sessionId: string): Promise<void> {
    const key = `${tenantId}/${sessionId}`;
    const pending = this.open.get(key);
    if (!pending) return;
    this.open.delete(key);
    await this.closeKept(key, async () => (await pending.catch(() => null))?.close());
  }

  /** Runs a sandbox's close, during which a new sandbox of the same session waits for it (see `use`). */
  private async closeKept(key: string, close: () => Promise<void>): Promise<void> {
    const closed = close();
    markWhileRunning(this.closing, key, closed);
    await closed;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (p) => (await p).close()));
    // An open that failed early leaves the CA being made (or written) behind it: nothing of this worker may
    // still write into its directory once it stopped.
    await this.ca;
  }

  private async closeIdle(): Promise<void> {
    const cutoff = this.clock.nowMs() - this.config.AGENTRY_SANDBOX_IDLE_MS;
    for (const [key, pending] of this.open) {
      const sandbox = await pending.catch(() => null);
      if (!sandbox || !sandbox.idleSince(cutoff)) continue;
      this.open.delete(key);
      await this.closeKept(key, () => sandbox.close()).catch((err: unknown) =>
        this.logger.warn({ err }, 'closing an idle sandbox failed'),
      );
    }
  }
}

/** Keeps `key` in `marks` until `work` settles (either way), unless a later mark replaced it. */
function markWhileRunning(marks: Map<string, Promise<void>>, key: string, work: Promise<unknown>): void {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  marks.set(key, settled);
  void settled.then(() => {
    if (marks.get(key) === settled) marks.delete(key);
  });
}
