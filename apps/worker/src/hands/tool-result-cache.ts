import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '@agentry/platform';
import { handsResultKey, type HandsExecResult } from '@agentry/contracts';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';

/**
 * Results by tool_use_id: a redelivered call gets the recorded result instead of running twice, and a turn
 * whose reply was lost (a NATS restart) reads it there.
 */
@Injectable()
export class ToolResultCache {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
  ) {}

  async get(toolUseId: string): Promise<HandsExecResult | null> {
    const raw = await this.redis.get(handsResultKey(toolUseId));
    return raw ? (JSON.parse(raw) as HandsExecResult) : null;
  }

  async put(result: HandsExecResult): Promise<void> {
    await this.redis.set(
      handsResultKey(result.toolUseId),
      JSON.stringify(result),
      'EX',
      this.config.AGENTRY_TOOL_RESULT_TTL_SECONDS,
    );
  }
}
