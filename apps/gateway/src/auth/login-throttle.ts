import { createHash } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import type { createRedis, Logger } from '@agentry/platform';

type Redis = ReturnType<typeof createRedis>;

export interface LoginThrottleLimits {
  /** Wrong passwords for one username, within `windowSeconds`, that lock it. */
  maxFailures: number;
  windowSeconds: number;
  /** How long a locked username refuses every login, right password or not. */
  lockoutSeconds: number;
}

// Counts failures and sets the lock in one step, so replicas racing on one username agree.
const RECORD_FAILURE = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
if failures >= tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  redis.call('DEL', KEYS[1])
  return tonumber(ARGV[3])
end
return 0`;

/**
 * Login throttling per username, in Redis so every gateway replica shares it: after `maxFailures`
 * wrong passwords within the window the username is locked for `lockoutSeconds`, and every login
 * for it answers 429 with `retry-after` until then. A successful login clears the count. Keys
 * carry a hash of the username, never the name itself.
 */
export class LoginThrottle implements OnApplicationShutdown {
  constructor(
    private readonly redis: Redis,
    private readonly limits: LoginThrottleLimits,
    private readonly logger: Logger,
  ) {}

  /** Throws RATE_LIMITED while the username is locked. */
  async assertAllowed(username: string): Promise<void> {
    const ttl = await this.guarded(() => this.redis.ttl(this.keys(username).lock), -2);
    if (ttl > 0) throw locked(ttl);
  }

  /** Counts a wrong password; throws RATE_LIMITED when this one locks the username. */
  async recordFailure(username: string): Promise<void> {
    const { failures, lock } = this.keys(username);
    const { maxFailures, windowSeconds, lockoutSeconds } = this.limits;
    const lockedFor = Number(await this.guarded(() => this.redis.eval(RECORD_FAILURE, 2, failures, lock, windowSeconds, maxFailures, lockoutSeconds), 0));
    if (lockedFor > 0) {
      this.logger.warn({ lockoutSeconds }, 'login locked after repeated wrong passwords');
      throw locked(lockedFor);
    }
  }

  async recordSuccess(username: string): Promise<void> {
    await this.guarded(() => this.redis.del(this.keys(username).failures), 0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  private keys(username: string): { failures: string; lock: string } {
    const id = createHash('sha256').update(username).digest('hex').slice(0, 32);
    return { failures: `failures:${id}`, lock: `lock:${id}` };
  }

  /** Without Redis the throttle steps aside: the password is still checked, logins keep working. */
  private async guarded<T>(command: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'login throttle unavailable');
      return fallback;
    }
  }
}

function locked(seconds: number): AppError {
  return new AppError('RATE_LIMITED', `Too many failed logins for this user; try again in ${seconds} s`, {
    retryable: true,
    details: { retry_after_seconds: seconds },
  });
}
