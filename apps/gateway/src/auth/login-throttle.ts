import { createHash } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import type { createRedis, Logger } from '@agentry/platform';

type Redis = ReturnType<typeof createRedis>;

export interface LoginThrottleLimits {
  /** Wrong passwords for one username from one address, within `windowSeconds`, that lock that pair. */
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
 * Login throttling per username and client address, in Redis so every gateway replica shares it:
 * after `maxFailures` wrong passwords within the window the pair is locked for `lockoutSeconds`,
 * and every login for that username from that address answers 429 with `retry-after` until then.
 * The owner logging in from elsewhere is not locked out by someone guessing; an address spraying
 * many usernames meets the per-address request limit. A successful login clears the count. Keys
 * carry a hash of the pair, never the name itself.
 */
export class LoginThrottle implements OnApplicationShutdown {
  constructor(
    private readonly redis: Redis,
    private readonly limits: LoginThrottleLimits,
    private readonly logger: Logger,
  ) {}

  /** Throws RATE_LIMITED while the username is locked. */
  async assertAllowed(username: string, address: string): Promise<void> {
    const ttl = await this.guarded(() => this.redis.ttl(this.keys(username, address).lock), -2);
    if (ttl > 0) throw locked(ttl);
  }

  /** Counts a wrong password; throws RATE_LIMITED when this one locks the username. */
  async recordFailure(username: string, address: string): Promise<void> {
    const { failures, lock } = this.keys(username, address);
    const { maxFailures, windowSeconds, lockoutSeconds } = this.limits;
    const lockedFor = Number(
      await this.guarded(
        () => this.redis.eval(RECORD_FAILURE, 2, failures, lock, windowSeconds, maxFailures, lockoutSeconds),
        0,
      ),
    );
    if (lockedFor > 0) {
      this.logger.warn({ lockoutSeconds }, 'login locked after repeated wrong passwords');
      throw locked(lockedFor);
    }
  }

  async recordSuccess(username: string, address: string): Promise<void> {
    await this.guarded(() => this.redis.del(this.keys(username, address).failures), 0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  private keys(username: string, address: string): { failures: string; lock: string } {
    const id = createHash('sha256')
      .update(`${username.toLowerCase()}\u0000${address}`)
      .digest('hex')
      .slice(0, 32);
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
  return new AppError(
    'RATE_LIMITED',
    `Too many failed logins for this user from this address; try again in ${seconds} s`,
    {
      retryable: true,
      details: { retry_after_seconds: seconds },
    },
  );
}
