import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ControlAccessSubjects, ControlSubjects, type Actor } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { ActorCache } from './actor-cache.js';

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
  ) {}

  /** A verified user token's user, in the namespace the request names (null: their default one). */
  user(userId: string, namespaceId: string | null): Promise<Actor> {
    return this.cache.resolve(`u:${userId}:${namespaceId ?? ''}`, async () => ({
      actor: await this.rpc.request(ControlAccessSubjects.resolveUser, { userId, namespaceId }),
      notAfter: null,
    }));
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
