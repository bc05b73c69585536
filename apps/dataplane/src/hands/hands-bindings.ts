import type { Redis } from 'ioredis';
import { AppError, HandsRegistry } from '@agentry/contracts';
import type { Clock } from '@agentry/platform';

export interface HandsBinding {
  workerId: string;
  /** Increases each time the session moves to another worker; the worker restores the workspace on a new one. */
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
  ) {}

  /** The session's worker, binding it to a live one first if it has none or its worker is dead. */
  async bind(tenantId: string, sessionId: string): Promise<HandsBinding> {
    const key = HandsRegistry.binding(tenantId, sessionId);
    const held = await this.redis.hgetall(key);
    if (held.workerId && (await this.isAlive(held.workerId))) {
      await this.redis.pexpire(key, this.leaseMs);
      return { workerId: held.workerId, epoch: Number(held.epoch) };
    }
    const live = await this.liveWorkers();
    if (live.length === 0)
      throw new AppError('UNAVAILABLE', 'No Hands worker is alive to run the call', { retryable: true });
    const workerId = live[Math.floor(Math.random() * live.length)]!;
    const results = await this.redis
      .multi()
      .hincrby(key, 'epoch', 1)
      .hset(key, 'workerId', workerId)
      .pexpire(key, this.leaseMs)
      .exec();
    const epoch = Number(results?.[0]?.[1] ?? 0);
    return { workerId, epoch };
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
