import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '@agentry/platform';
import { handsCallKey, handsResultKey, type HandsExecResult } from '@agentry/contracts';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { WORKER_ID } from './worker-identity.js';

/**
 * KEYS: the call's result, the call's holder; ARGV: this worker, how long it holds the call. The recorded
 * result, or whether this worker holds the call now (taken if nobody held it): `{result | false, 1 | 0}`.
 */
const RECORDED_OR_CLAIM = `
local recorded = redis.call('GET', KEYS[1])
if recorded then return {recorded, 0} end
local holder = redis.call('GET', KEYS[2])
if not holder then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
  return {false, 1}
end
if holder == ARGV[1] then return {false, 1} end
return {false, 0}`;

interface WithRecordedOrClaim {
  handsRecordedOrClaim(
    resultKey: string,
    callKey: string,
    workerId: string,
    holdMs: number,
  ): Promise<[string | null, number]>;
}

/**
 * Results by tool_use_id: a redelivered call gets the recorded result instead of running twice, and a turn
 * whose reply was lost (a NATS restart) reads it there. Also which worker took each call (`claim`).
 */
@Injectable()
export class ToolResultCache {
  private readonly scripts: Redis & WithRecordedOrClaim;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
  ) {
    // A defined command is sent by its hash (EVALSHA), the script itself only when Redis does not know it.
    redis.defineCommand('handsRecordedOrClaim', { numberOfKeys: 2, lua: RECORDED_OR_CLAIM });
    this.scripts = redis as Redis & WithRecordedOrClaim;
  }

  /**
   * The call's recorded result if there is one, else whether this worker holds the call (taking it if no
   * worker did): both asked in one script, as every call that may change something asks them before it runs.
   */
  async recordedOrClaim(
    toolUseId: string,
    holdMs: number,
  ): Promise<{ recorded: HandsExecResult } | { claimed: boolean }> {
    const [recorded, claimed] = await this.scripts.handsRecordedOrClaim(
      handsResultKey(toolUseId),
      handsCallKey(toolUseId),
      WORKER_ID,
      holdMs,
    );
    if (typeof recorded === 'string') return { recorded: JSON.parse(recorded) as HandsExecResult };
    return { claimed: claimed === 1 };
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
