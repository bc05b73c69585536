import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ActorSchema, AppError, type Actor } from '@agentry/contracts';
import { JwtKeys, kidOfToken } from './jwt-keys.js';

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

/**
 * Verifies user tokens (HS256) in place: the `kid` header picks the key (the current one, or the
 * previous one within its window), then the signature, expiry and claims are checked. Called on every
 * request, so it is a plain function call rather than an authentication framework's strategy chain.
 */
@Injectable()
export class UserTokens {
  constructor(
    private readonly jwt: JwtService,
    @Inject(JwtKeys) private readonly keys: JwtKeys,
  ) {}

  verify(token: string): TokenActor {
    const key = this.keys.verifyKeyFor(kidOfToken(token));
    if (!key) throw new AppError('UNAUTHENTICATED', INVALID);
    let claims: UserTokenClaims;
    try {
      // jsonwebtoken verifies with a KeyObject as it is; the wrapper's types predate key objects.
      claims = this.jwt.verify<UserTokenClaims>(token, {
        secret: key as unknown as Buffer,
        algorithms: ['HS256'],
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
    return { ...parsed.data, userId, tokenId: claims.jti ?? null, tokenExpiresAt: claims.exp ?? null };
  }
}
