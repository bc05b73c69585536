import { createHash, type KeyObject } from 'node:crypto';
import type { Clock } from '@agentry/platform';

interface VerifiedToken<T> {
  value: T;
  /** The key that verified the signature: the entry holds only while that key is still accepted. */
  key: KeyObject;
  kid: string | undefined;
  /** The token's own `exp` (epoch ms), or null when it has none. */
  expiresAt: number | null;
}

/**
 * Tokens whose signature and claims were already checked, so a client sending the same token on every
 * request pays for the HMAC and the claim parsing once. An entry is used only while the token has not
 * expired and the key that verified it is still accepted (a rotation's closing window ends it too).
 * Revocation is not judged here: it is checked after, per request, against the actor cache. Keyed by
 * a hash of the token, so no bearer token outlives its request in memory. Bounded, oldest out first.
 */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, VerifiedToken<T>>();

  constructor(
    private readonly maxEntries: number,
    private readonly clock: Clock,
  ) {}

  /** The cached result for `token`, if it still holds with `acceptedKey` the key its `kid` picks now. */
  get(token: string, acceptedKey: (kid: string | undefined) => KeyObject | null): T | undefined {
    const hash = hashOf(token);
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if ((hit.expiresAt === null || hit.expiresAt > this.clock.nowMs()) && acceptedKey(hit.kid) === hit.key)
      return hit.value;
    this.entries.delete(hash);
    return undefined;
  }

  set(token: string, entry: VerifiedToken<T>): void {
    const hash = hashOf(token);
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, entry);
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
