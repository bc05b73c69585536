import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ActorSchema, AppError, type Actor } from '@agentry/contracts';
import { CLOCK, type Clock } from '@agentry/platform';
import { JwtKeys, kidOfToken } from './jwt-keys.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Claims of a user token: the actor, flattened; `jti` and `exp` are set when it is signed. */
export interface UserTokenClaims {
  sub: string;
  tid: string;
  nsid: string;
  role: Actor['role'];
  jti?: string;
  exp?: number;
}

/** What a verified user token yields: its actor (always a user) and what identifies the token itself. */
export type TokenActor = Actor & { userId: string; tokenId: string | null; tokenExpiresAt: number | null };

const INVALID = 'Invalid or expired token';

/** Distinct tokens whose verification is remembered; a client reuses one token for many requests. */
const VERIFIED_TOKENS = 10_000;

/**
 * Verifies user tokens (HS256) in place: the `kid` header picks the key (the current one, or the
 * previous one within its window), then the signature, expiry and claims are checked. Called on every
 * request, so it is a plain function call rather than an authentication framework's strategy chain, and
 * a token already verified is answered from memory until it expires or its key stops being accepted.
 */
@Injectable()
export class UserTokens {
  private readonly verified: VerifiedTokens<TokenActor>;

  constructor(
    private readonly jwt: JwtService,
    @Inject(JwtKeys) private readonly keys: JwtKeys,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.verified = new VerifiedTokens(VERIFIED_TOKENS, clock);
  }

  verify(token: string): TokenActor {
    const cached = this.verified.get(token, (kid) => this.keys.verifyKeyFor(kid));
    if (cached) return cached;
    const kid = kidOfToken(token);
    const key = this.keys.verifyKeyFor(kid);
    if (!key) throw new AppError('UNAUTHENTICATED', INVALID);
    let claims: UserTokenClaims;
    try {
      // jsonwebtoken verifies with a KeyObject as it is; the wrapper's types predate key objects.
      claims = this.jwt.verify<UserTokenClaims>(token, {
        secret: key as unknown as Buffer,
        algorithms: ['HS256'],
        // Expiry judged by the same clock as the cache above, so the two can never disagree.
        clockTimestamp: Math.floor(this.clock.nowMs() / 1000),
      });
    } catch {
      throw new AppError('UNAUTHENTICATED', INVALID);
    }
    const parsed = ActorSchema.safeParse({
      tenantId: claims.tid,
      namespaceId: claims.nsid,
      userId: claims.sub,
      apiKeyId: null,
      role: claims.role,
    });
    const userId = parsed.success ? parsed.data.userId : null;
    if (!parsed.success || !userId) throw new AppError('UNAUTHENTICATED', INVALID);
    const actor = { ...parsed.data, userId, tokenId: claims.jti ?? null, tokenExpiresAt: claims.exp ?? null };
    this.verified.set(token, { value: actor, key, kid, expiresAt: claims.exp ? claims.exp * 1000 : null });
    return actor;
  }
}
