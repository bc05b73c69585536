import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { availableParallelism, freemem, loadavg } from 'node:os';
import type { Redis } from 'ioredis';
import { HandsHeartbeatKeys, type ClusterHandsHeartbeat } from '@agentry/contracts';
import { CLOCK, LOGGER, REDIS, type Clock, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { E2bSessionSandboxes } from '../e2b/e2b-session-sandboxes.js';
import { RunningToolCalls } from '../hands/running-tool-calls.js';
import { SessionSandboxes } from '../hands/session-sandboxes.js';
import { WORKER_ID } from '../hands/worker-identity.js';

/**
 * Every few seconds, this worker's capacity and the sandboxes it holds go to Redis with a TTL of three
 * beats: a worker that dies leaves the status once its last report expires, with nothing to clean up.
 */
@Injectable()
export class HandsHeartbeatService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly sandboxes: SessionSandboxes,
    private readonly running: RunningToolCalls,
    private readonly e2b: E2bSessionSandboxes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    void this.beat();
    this.timer = setInterval(() => void this.beat(), this.config.AGENTRY_HANDS_STATUS_INTERVAL_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    // A worker that shuts down cleanly leaves at once rather than after its TTL.
    await Promise.allSettled([
      this.redis.zrem(HandsHeartbeatKeys.index, WORKER_ID),
      this.redis.del(HandsHeartbeatKeys.worker(WORKER_ID)),
    ]);
  }

  private async beat(): Promise<void> {
    const now = this.clock.nowMs();
    const ttlMs = this.config.AGENTRY_HANDS_STATUS_INTERVAL_MS * 3;
    const heartbeat: ClusterHandsHeartbeat = {
      workerId: WORKER_ID,
      at: now,
      capacity: {
        cpus: availableParallelism(),
        freeMemoryBytes: freemem(),
        loadAverage1m: loadavg()[0] ?? 0,
      },
      runningCalls: this.running.count,
      liveSandboxes: [...this.sandboxes.held(), ...this.e2b.held()],
    };
    try {
      await this.redis
        .multi()
        .set(HandsHeartbeatKeys.worker(WORKER_ID), JSON.stringify(heartbeat), 'PX', ttlMs)
        .zadd(HandsHeartbeatKeys.index, now + ttlMs, WORKER_ID)
        .zremrangebyscore(HandsHeartbeatKeys.index, '-inf', now)
        .exec();
    } catch (err) {
      this.logger.warn({ err }, 'hands heartbeat failed');
    }
  }
}
