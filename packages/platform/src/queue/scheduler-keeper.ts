import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';

/** Re-installs a job scheduler if it is missing; resolves true when it had to. */
type EnsureScheduler = () => Promise<boolean>;

/**
 * Keeps repeating jobs alive across Redis restarts. BullMQ stores job schedulers in Redis only, so a
 * Redis that restarts without persistence forgets them and nothing would tick again until the
 * process that installed them restarts. This re-checks them when a queue connection becomes ready
 * again after losing its server, and every `selfCheckMs` in case the keys went another way
 * (eviction, a flush). Hooks registered with `onLost` run after a check, so callers can rebuild
 * schedulers they derive from the database (cron deployments).
 */
export class SchedulerKeeper {
  private readonly schedulers = new Map<string, EnsureScheduler>();
  private readonly hooks: Array<() => Promise<unknown>> = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly logger: Logger,
    private readonly selfCheckMs: number,
  ) {}

  keep(id: string, ensure: EnsureScheduler): void {
    this.schedulers.set(id, ensure);
    if (!this.timer && this.selfCheckMs > 0) {
      this.timer = setInterval(() => void this.check(false), this.selfCheckMs);
      this.timer.unref();
    }
  }

  onLost(hook: () => Promise<unknown>): void {
    this.hooks.push(hook);
  }

  /** Checks again each time `redis` is ready after a reconnect (not on its first connection). */
  watch(redis: Redis): void {
    let connectedBefore = false;
    redis.on('ready', () => {
      if (connectedBefore) {
        this.logger.info({}, 'redis connection is back; checking job schedulers');
        void this.check(true);
      }
      connectedBefore = true;
    });
  }

  /** One check at a time; a check asked for while one runs runs once more afterwards. */
  check(reconnected: boolean): Promise<void> {
    if (this.running) {
      this.again ||= reconnected;
      return this.running;
    }
    this.running = this.run(reconnected).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.check(true);
      }
    });
    return this.running;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.schedulers.clear();
    this.hooks.length = 0;
  }

  private async run(reconnected: boolean): Promise<void> {
    try {
      const reinstalled: string[] = [];
      for (const [id, ensure] of this.schedulers) if (await ensure()) reinstalled.push(id);
      if (reinstalled.length)
        this.logger.warn({ schedulers: reinstalled }, 'job schedulers were missing from redis; re-installed');
      if (reconnected || reinstalled.length) for (const hook of this.hooks) await hook();
    } catch (error) {
      // Redis may be gone again; the next reconnect or self-check tries once more.
      this.logger.warn({ err: (error as Error).message }, 'job scheduler check failed');
    }
  }
}
