import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '@agentry/platform';
import { handsCallKey, handsResultKey, type HandsExecResult } from '@agentry/contracts';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { WORKER_ID } from './worker-identity.js';

/**
 * Results by tool_use_id: a redelivered call gets the recorded result instead of running twice, and a turn
 * whose reply was lost (a NATS restart) reads it there. Also which worker took each call (`claim`).
 */
@Injectable()
export class ToolResultCache {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
  ) {}

  /**
   * Takes the call for this worker before it runs, for `holdMs` (as long as it may run): true when this
   * worker holds it, false when another worker took it first (see `handsCallKey`).
   */
  private async claim(toolUseId: string, holdMs: number): Promise<boolean> {
    const key = handsCallKey(toolUseId);
    for (;;) {
      if ((await this.redis.set(key, WORKER_ID, 'PX', holdMs, 'NX')) === 'OK') return true;
      const holder = await this.redis.get(key);
      // Gone between the two commands (its hold ran out): try to take it again.
      if (holder !== null) return holder === WORKER_ID;
    }
  }

  /**
   * The call's recorded result if there is one, else whether this worker holds the call (as `claim`): both
   * asked in one round trip, as every call that may change something asks them before it runs.
   */
  async recordedOrClaim(
    toolUseId: string,
    holdMs: number,
  ): Promise<{ recorded: HandsExecResult } | { claimed: boolean }> {
    const replies = await this.redis
      .multi()
      .get(handsResultKey(toolUseId))
      .set(handsCallKey(toolUseId), WORKER_ID, 'PX', holdMs, 'NX')
      .exec();
    const failed = replies?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
    const [[, raw] = [], [, taken] = []] = replies ?? [];
    if (typeof raw === 'string') return { recorded: JSON.parse(raw) as HandsExecResult };
    return { claimed: taken === 'OK' || (await this.claim(toolUseId, holdMs)) };
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
