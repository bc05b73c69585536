import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { SandboxNetworking, SandboxProviderChoice } from '@agentry/contracts';
import { CLOCK, LOGGER, REDIS, type Clock, type Logger } from '@agentry/platform';
import type { E2bSandbox } from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { e2bTargetOf, type E2bTarget } from './e2b-connection.js';
import { E2B_SANDBOX_FACTORY, type E2bSandboxFactory } from './e2b-sandbox-factory.js';
import { E2bShell } from './e2b-shell.js';

/** How long a session's sandbox id is remembered after its last call (a paused sandbox may wait that long). */
const SANDBOX_ID_TTL_SECONDS = 30 * 24 * 3600;

interface Remembered {
  sandboxId: string;
  apiUrl?: string;
  domain?: string;
}

/** One session's E2B sandbox as this worker holds it. */
export class E2bSessionSandbox {
  private lastUsed: number;
  readonly openedAt: number;
  private running = 0;
  readonly shell: E2bShell;

  constructor(
    readonly fs: E2bSandbox,
    readonly target: E2bTarget,
    maxOutputBytes: number,
    private readonly clock: Clock,
  ) {
    this.shell = new E2bShell(fs, maxOutputBytes);
    this.openedAt = this.lastUsed = clock.nowMs();
  }

  async use<T>(call: () => Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await call();
    } finally {
      this.running -= 1;
      this.lastUsed = this.clock.nowMs();
    }
  }

  idleSince(cutoff: number): boolean {
    return this.running === 0 && this.lastUsed < cutoff;
  }

  /** Opened before `cutoff` and nothing running: time to connect again, which extends its E2B lifetime. */
  dueForRenewal(cutoff: number): boolean {
    return this.running === 0 && this.openedAt < cutoff;
  }
}

/**
 * The sessions whose tools run in E2B, one sandbox each: created by the session's first call, used by
 * every later one. Its id lives in Redis, so a worker that takes the session over (after a crash) connects
 * to the same sandbox instead of creating one. Idle for AGENTRY_E2B_IDLE_MS it is paused (resumed by the
 * next call's connect) or killed; it is killed when the session ends.
 */
@Injectable()
export class E2bSessionSandboxes implements OnModuleDestroy {
  private readonly open = new Map<string, Promise<E2bSessionSandbox>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    @Inject(E2B_SANDBOX_FACTORY) private readonly factory: E2bSandboxFactory,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.sweeper = setInterval(
      () => void this.reapIdle(),
      Math.min(60_000, config.AGENTRY_E2B_IDLE_MS),
    ).unref();
  }

  /** Runs `call` in the session's sandbox, connecting to it or creating it first if this worker does not hold it. */
  async use<T>(
    tenantId: string,
    sessionId: string,
    choice: SandboxProviderChoice | undefined,
    networking: SandboxNetworking,
    call: (sandbox: E2bSessionSandbox) => Promise<T>,
  ): Promise<T> {
    const key = keyOf(tenantId, sessionId);
    let pending = this.open.get(key);
    // E2B ends a sandbox at its timeout however busy the session is; connecting again halfway extends it.
    const renewal = this.clock.nowMs() - this.config.AGENTRY_E2B_SANDBOX_TIMEOUT_MS / 2;
    if (
      pending &&
      (await pending.catch(() => null))?.dueForRenewal(renewal) &&
      this.open.get(key) === pending
    ) {
      this.open.delete(key);
      pending = undefined;
    }
    if (!pending) {
      // Registered before anything is awaited, so concurrent first calls share one sandbox.
      pending = this.acquire(key, sessionId, e2bTargetOf(choice, this.config), networking);
      this.open.set(key, pending);
      pending.catch(() => this.open.delete(key));
    }
    const sandbox = await pending;
    return sandbox.use(() => call(sandbox));
  }

  /** The session ended: its sandbox is killed, whichever worker created it, and forgotten. */
  async end(tenantId: string, sessionId: string): Promise<void> {
    const key = keyOf(tenantId, sessionId);
    const held = this.open.get(key);
    this.open.delete(key);
    const remembered = await this.remembered(key);
    await this.redis.del(redisKey(key));
    const sandbox = await held?.catch(() => undefined);
    if (sandbox) {
      await sandbox.fs.dispose().catch((err: unknown) => this.warn(sessionId, err, 'killing'));
    } else if (remembered) {
      const target = e2bTargetOf({ provider: 'e2b', ...remembered }, this.config);
      await this.factory
        .kill(remembered.sandboxId, target.connection)
        .catch((err: unknown) => this.warn(sessionId, err, 'killing'));
    } else return;
    this.logger.info({ sessionId }, 'session ended; its E2B sandbox is killed');
  }

  /** The sessions whose sandbox this worker holds now (for its heartbeat). */
  held(): Array<{ tenantId: string; sessionId: string }> {
    return [...this.open.keys()].map((key) => {
      const [tenantId = '', sessionId = ''] = key.split('/');
      return { tenantId, sessionId };
    });
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    // Another worker connects to these sandboxes when the sessions go on; paused they cost nothing meanwhile.
    if (this.config.AGENTRY_E2B_IDLE_ACTION !== 'pause') return this.open.clear();
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (p) => (await p).fs.pause()));
  }

  private async acquire(
    key: string,
    sessionId: string,
    target: E2bTarget,
    networking: SandboxNetworking,
  ): Promise<E2bSessionSandbox> {
    const options = {
      ...target.connection,
      sandboxTimeoutMs: this.config.AGENTRY_E2B_SANDBOX_TIMEOUT_MS,
      workdir: this.config.AGENTRY_E2B_WORKDIR,
      defaultTimeoutMs: this.config.AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS,
      defaultMaxOutputBytes: this.config.AGENTRY_SANDBOX_OUTPUT_BYTES,
    };
    const remembered = await this.remembered(key);
    if (remembered) {
      try {
        const fs = await this.factory.connect(remembered.sandboxId, options);
        await this.remember(key, fs.sandboxId, target);
        this.logger.info({ sessionId, sandboxId: fs.sandboxId }, 'connected to the session E2B sandbox');
        return new E2bSessionSandbox(fs, target, this.config.AGENTRY_SANDBOX_OUTPUT_BYTES, this.clock);
      } catch (err) {
        // Only a sandbox E2B no longer knows is replaced; any other failure fails the call, the state kept.
        if (!isSandboxGone(err)) throw err;
        this.logger.warn({ sessionId }, 'the session E2B sandbox is gone; a new one is created');
      }
    }
    const fs = await this.factory.create({
      ...options,
      ...(target.template ? { template: target.template } : {}),
      metadata: { agentrySession: sessionId },
      // E2B has no host allow-list here: a `limited` environment gets no internet at all.
      allowInternetAccess: networking.type === 'unrestricted',
    });
    await this.remember(key, fs.sandboxId, target);
    this.logger.info({ sessionId, sandboxId: fs.sandboxId }, 'created the session E2B sandbox');
    return new E2bSessionSandbox(fs, target, this.config.AGENTRY_SANDBOX_OUTPUT_BYTES, this.clock);
  }

  private async reapIdle(): Promise<void> {
    const cutoff = this.clock.nowMs() - this.config.AGENTRY_E2B_IDLE_MS;
    const action = this.config.AGENTRY_E2B_IDLE_ACTION;
    for (const [key, pending] of this.open) {
      const sandbox = await pending.catch(() => null);
      if (!sandbox || !sandbox.idleSince(cutoff) || this.open.get(key) !== pending) continue;
      this.open.delete(key);
      try {
        if (action === 'pause') await sandbox.fs.pause();
        else {
          await this.redis.del(redisKey(key));
          await sandbox.fs.kill();
        }
      } catch (err) {
        this.warn(key, err, action === 'pause' ? 'pausing' : 'killing');
      }
    }
  }

  private async remembered(key: string): Promise<Remembered | null> {
    const raw = await this.redis.get(redisKey(key));
    return raw ? (JSON.parse(raw) as Remembered) : null;
  }

  private async remember(key: string, sandboxId: string, target: E2bTarget): Promise<void> {
    const { apiUrl, domain } = target.connection;
    const value: Remembered = { sandboxId, ...(apiUrl ? { apiUrl } : {}), ...(domain ? { domain } : {}) };
    await this.redis.set(redisKey(key), JSON.stringify(value), 'EX', SANDBOX_ID_TTL_SECONDS);
  }

  private warn(sessionId: string, err: unknown, doing: string): void {
    this.logger.warn({ sessionId, err }, `${doing} an E2B sandbox failed`);
  }
}

const keyOf = (tenantId: string, sessionId: string) => `${tenantId}/${sessionId}`;
const redisKey = (key: string) => `hands:e2b:${key}`;

function isSandboxGone(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'NotFoundError' || name === 'SandboxNotFoundError';
}
