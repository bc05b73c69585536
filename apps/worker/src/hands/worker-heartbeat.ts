import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HandsRegistry } from '@agentry/contracts';
import { CLOCK, LOGGER, REDIS, type Clock, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { WORKER_ID } from './worker-identity.js';

/**
 * Tells the Brain this worker is alive: its entry in the live-worker set stays valid for
 * AGENTRY_HANDS_LIVENESS_MS past each beat. A worker that stops beating (killed, hung) is skipped by new
 * bindings, and the calls it was running are answered as possibly run.
 */
@Injectable()
export class WorkerHeartbeat implements OnModuleInit, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A restarted Redis holds no live workers: beat as soon as it is back rather than at the next tick. */
  private readonly beatOnReconnect = () => void this.beat();

  async onModuleInit(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.config.AGENTRY_HANDS_HEARTBEAT_MS);
    this.redis.on('ready', this.beatOnReconnect);
    this.logger.info({ workerId: WORKER_ID }, 'hands worker registered');
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.redis.off('ready', this.beatOnReconnect);
    await this.redis
      .multi()
      .zrem(HandsRegistry.workers, WORKER_ID)
      .del(HandsRegistry.takesCopies(WORKER_ID))
      .exec()
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const liveness = this.config.AGENTRY_HANDS_LIVENESS_MS;
    try {
      await this.redis
        .multi()
        .zadd(HandsRegistry.workers, this.clock.nowMs() + liveness, WORKER_ID)
        // Copies of a call's request are safe to send here: ToolCallsOnce runs it once.
        .set(HandsRegistry.takesCopies(WORKER_ID), '1', 'PX', liveness)
        .exec();
    } catch (err) {
      this.logger.warn({ err }, 'hands heartbeat failed');
    }
  }
}
