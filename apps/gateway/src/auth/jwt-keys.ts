import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import type { Clock } from '@agentry/platform';
import type { GatewayEnv } from '../config/env.js';

interface SigningKey {
  kid: string;
  secret: string;
  /**
   * The secret as a key object, made once: given a string, jsonwebtoken first tries (and fails) to parse
   * it as a PEM public key on every verification, which was the gateway's largest cost per request.
   */
  verifyKey: KeyObject;
}

function signingKey(secret: string): SigningKey {
  return { kid: keyIdOf(secret), secret, verifyKey: createSecretKey(Buffer.from(secret, 'utf8')) };
}

/** A key's id: a short hash of it, so replicas agree on ids without configuring any. */
export function keyIdOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

/**
 * The keys of user tokens. The current key signs and names itself in the `kid` header; after a
 * rotation the previous key still verifies the tokens it signed until its window closes, so nobody
 * is logged out by the rotation. Tokens from before key ids existed carry none and verify with the
 * current key, as they always did.
 */
export class JwtKeys {
  readonly current: SigningKey;
  private readonly previous: (SigningKey & { acceptedUntil: number }) | null;

  constructor(
    config: Pick<
      GatewayEnv,
      | 'AGENTRY_JWT_SECRET'
      | 'AGENTRY_JWT_PREVIOUS_SECRET'
      | 'AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL'
      | 'AGENTRY_JWT_TTL_SECONDS'
    >,
    private readonly clock: Clock,
  ) {
    this.current = signingKey(config.AGENTRY_JWT_SECRET);
    const previous = config.AGENTRY_JWT_PREVIOUS_SECRET;
    this.previous = previous
      ? {
          ...signingKey(previous),
          // By default, long enough for every token the previous key signed to reach its own expiry.
          acceptedUntil: config.AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL
            ? Date.parse(config.AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL)
            : clock.nowMs() + config.AGENTRY_JWT_TTL_SECONDS * 1000,
        }
      : null;
  }

  /** The key that verifies a token with this `kid`, or null when no accepted key has it. */
  verifyKeyFor(kid: string | undefined): KeyObject | null {
    const now = this.clock.nowMs();
    if (kid === undefined || kid === this.current.kid) return this.current.verifyKey;
    if (this.previous && kid === this.previous.kid && now < this.previous.acceptedUntil)
      return this.previous.verifyKey;
    return null;
  }
}

/** The `kid` of a compact JWT's header, read without verifying anything (the key is chosen by it). */
export function kidOfToken(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as {
      kid?: unknown;
    };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}
