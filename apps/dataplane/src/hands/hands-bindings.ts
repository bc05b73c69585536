import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { AppError, HandsRegistry } from '@agentry/contracts';
import type { Clock } from '@agentry/platform';

const RETRY_PAUSE_MS = 250;

/** The binding (worker, epoch) with its lease renewed, and the held worker's heartbeat, in one round trip. */
const READ_BINDING = `
local held = redis.call('HMGET', KEYS[1], 'workerId', 'epoch')
if held[1] == false and held[2] == false then return {false, false, false} end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local beat = false
if held[1] then beat = redis.call('ZSCORE', KEYS[2], held[1]) end
return {held[1], held[2], beat}`;

export interface HandsBinding {
  workerId: string;
  /**
   * Increases each time the session moves to another worker, never reused; the worker restores the workspace
   * on a new one and writes the session's durable copy only under the newest.
   */
  epoch: number;
}

/**
 * Which cluster worker holds each session: one at a time, under a lease each call renews. A binding
 * to a worker whose heartbeat lapsed is replaced by one to a live worker, with a new epoch.
 */
export class HandsBindings {
  constructor(
    private readonly redis: Redis,
    private readonly leaseMs: number,
    private readonly clock: Clock,
    /** How long `bind` waits for a live worker (or for Redis) before it gives up: see AGENTRY_HANDS_WORKER_WAIT_MS. */
    private readonly workerWaitMs = 0,
  ) {}

  /**
   * The session's worker, binding it to a live one first if it has none or its worker is dead. Should
   * no worker be registered or Redis be unreachable (both seen for a moment while Redis restarts), it
   * asks again until `workerWaitMs` has passed, then throws what stopped it.
   */
  async bind(tenantId: string, sessionId: string): Promise<HandsBinding> {
    // Real time, as the pauses between attempts are.
    const deadline = performance.now() + this.workerWaitMs;
    for (;;) {
      try {
        return await this.bindOnce(tenantId, sessionId);
      } catch (error) {
        if (performance.now() + RETRY_PAUSE_MS > deadline) throw error;
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  private async bindOnce(tenantId: string, sessionId: string): Promise<HandsBinding> {
    const key = HandsRegistry.binding(tenantId, sessionId);
    // Every call binds: the read, the lease's renewal and the held worker's heartbeat are one round trip.
    // Renewing a binding to a worker found dead below does no harm, the binding is replaced.
    const [heldWorker, heldEpoch, validUntil] = (await this.redis.eval(
      READ_BINDING,
      2,
      key,
      HandsRegistry.workers,
      this.leaseMs,
    )) as [string | null, string | null, string | null];
    if (heldWorker && validUntil !== null && Number(validUntil) > this.clock.nowMs())
      return { workerId: heldWorker, epoch: Number(heldEpoch) };
    const live = await this.liveWorkers();
    if (live.length === 0)
      throw new AppError('UNAVAILABLE', 'No Hands worker is alive to run the call', { retryable: true });
    const workerId = live[Math.floor(Math.random() * live.length)]!;
    // The worker fences the durable workspace by epoch, so a new one must exceed every earlier one, also
    // once this key expired or Redis lost it: the clock carries the order where the key cannot.
    const epoch = Math.max(Number(heldEpoch ?? 0) + 1, this.clock.nowMs());
    await this.redis
      .multi()
      .hset(key, 'epoch', epoch, 'workerId', workerId)
      .pexpire(key, this.leaseMs)
      .exec();
    return { workerId, epoch };
  }

  /**
   * A new epoch for the session's binding, on the same worker: it restores the session's workspace from the
   * durable copy on its next call (the copy was rewritten underneath it, by a rollback). No binding: nothing.
   */
  async renew(tenantId: string, sessionId: string): Promise<void> {
    const key = HandsRegistry.binding(tenantId, sessionId);
    const held = await this.redis.hget(key, 'epoch');
    if (held === null) return;
    await this.redis.hset(key, 'epoch', Math.max(Number(held) + 1, this.clock.nowMs()));
  }

  /** Whether the worker runs a call once however many copies of its request arrive (see HandsRegistry). */
  async takesCopies(workerId: string): Promise<boolean> {
    return (await this.redis.exists(HandsRegistry.takesCopies(workerId))) === 1;
  }

  /** A worker is alive while its last heartbeat is still valid. */
  async isAlive(workerId: string): Promise<boolean> {
    const validUntil = await this.redis.zscore(HandsRegistry.workers, workerId);
    return validUntil !== null && Number(validUntil) > this.clock.nowMs();
  }

  private async liveWorkers(): Promise<string[]> {
    const now = this.clock.nowMs();
    await this.redis.zremrangebyscore(HandsRegistry.workers, '-inf', now - 60_000);
    return this.redis.zrangebyscore(HandsRegistry.workers, now, '+inf');
  }
}
