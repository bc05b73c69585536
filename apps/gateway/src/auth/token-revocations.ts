import type { OnApplicationShutdown } from '@nestjs/common';
import type { Clock, createRedis } from '@agentry/platform';

type Redis = ReturnType<typeof createRedis>;

/**
 * Revoked user tokens, by `jti`, in Redis so every replica sees them. Each login records its token
 * under its user, so a password change can revoke all of them. Entries live only as long as the
 * tokens they name could. A replica checks this when it resolves a token's actor; the access-change
 * message that follows every revocation drops cached actors everywhere, so the check runs again.
 */
export class TokenRevocations implements OnApplicationShutdown {
  constructor(
    private readonly redis: Redis,
    private readonly tokenTtlSeconds: number,
    private readonly clock: Clock,
  ) {}

  /**
   * Never fails a login: without Redis the token is issued untracked (logout can still revoke it by its
   * id; a password change cannot reach it, and it expires on its own).
   */
  async track(userId: string, jti: string): Promise<void> {
    await this.redis
      .multi()
      .sadd(this.userKey(userId), jti)
      .expire(this.userKey(userId), this.tokenTtlSeconds)
      .exec()
      .catch(() => undefined);
  }

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.redis.exists(this.revokedKey(jti))) === 1;
  }

  /** Revokes one token (logout); `expiresAt` in seconds since the epoch, as in its `exp`. */
  async revoke(userId: string, jti: string, expiresAt: number): Promise<void> {
    const ttl = Math.max(1, expiresAt - Math.floor(this.clock.nowMs() / 1000));
    await this.redis.multi().set(this.revokedKey(jti), '1', 'EX', ttl).srem(this.userKey(userId), jti).exec();
  }

  /** Revokes every token the user holds (a password change). */
  async revokeAllOf(userId: string): Promise<number> {
    const jtis = await this.redis.smembers(this.userKey(userId));
    const batch = this.redis.multi();
    for (const jti of jtis) batch.set(this.revokedKey(jti), '1', 'EX', this.tokenTtlSeconds);
    await batch.del(this.userKey(userId)).exec();
    return jtis.length;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  private userKey(userId: string): string {
    return `user:${userId}`;
  }

  private revokedKey(jti: string): string {
    return `revoked:${jti}`;
  }
}
