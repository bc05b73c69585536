import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, ControlSubjects, type Actor } from '@agentry/contracts';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { ActorCache } from './actor-cache.js';
import { TokenRevocations } from './token-revocations.js';

/**
 * Who a user token or an API key acts as. Answers from the actor cache when it can and asks control
 * otherwise; control's verdict (disabled user, revoked key, lost membership) reaches the cache through
 * access-change messages, so it still takes effect on the next request.
 */
@Injectable()
export class ActorResolver {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(ActorCache) private readonly cache: ActorCache,
    @Inject(TokenRevocations) private readonly revocations: TokenRevocations,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * A verified user token's user, in the namespace the request names (null: their default one).
   * A token with an id is refused once revoked; the verdict is cached with the actor and dropped
   * with it by the access change every revocation publishes.
   */
  user(userId: string, namespaceId: string | null, tokenId: string | null = null): Promise<Actor> {
    return this.cache.resolve(`u:${userId}:${namespaceId ?? ''}:${tokenId ?? ''}`, async () => {
      const [actor, revoked] = await Promise.all([
        this.rpc.request(ControlSubjects.resolveUser, { userId, namespaceId }),
        tokenId ? this.isRevoked(tokenId) : false,
      ]);
      if (revoked)
        throw new AppError(
          'UNAUTHENTICATED',
          'This token was revoked (logged out or password changed); log in again',
        );
      return { actor, notAfter: null };
    });
  }

  /** Without Redis revocations cannot be read; tokens stay valid until their expiry rather than all failing. */
  private async isRevoked(tokenId: string): Promise<boolean> {
    try {
      return await this.revocations.isRevoked(tokenId);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'token revocations unavailable');
      return false;
    }
  }

  /** Keyed by the key's hash: the secret itself is never kept in memory longer than the request. */
  apiKey(key: string): Promise<Actor> {
    const hash = createHash('sha256').update(key).digest('base64url');
    return this.cache.resolve(`k:${hash}`, async () => {
      const { keyExpiresAt, ...actor } = await this.rpc.request(ControlSubjects.verifyApiKey, { key });
      return { actor, notAfter: keyExpiresAt ? Date.parse(keyExpiresAt) : null };
    });
  }
}
