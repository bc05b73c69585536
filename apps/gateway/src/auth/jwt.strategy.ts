import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ActorSchema, type Actor } from '@agentry/contracts';
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

/** What a verified user token yields: its actor and what identifies the token itself. */
export type TokenActor = Actor & { tokenId: string | null; tokenExpiresAt: number | null };

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(JwtKeys) keys: JwtKeys) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // The `kid` header picks the key: the current one, or the previous one within its window.
      secretOrKeyProvider: (
        _request: unknown,
        rawToken: string,
        done: (error: Error | null, key?: string | Buffer) => void,
      ) => {
        const key = keys.verifyKeyFor(kidOfToken(rawToken));
        // jsonwebtoken verifies with a KeyObject as it is; passport-jwt's types predate key objects.
        if (key) done(null, key as unknown as Buffer);
        else done(new Error('unknown or retired signing key'));
      },
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(claims: UserTokenClaims): TokenActor | false {
    const parsed = ActorSchema.safeParse({
      tenantId: claims.tid,
      namespaceId: claims.nsid,
      userId: claims.sub,
      apiKeyId: null,
      role: claims.role,
    });
    return parsed.success
      ? { ...parsed.data, tokenId: claims.jti ?? null, tokenExpiresAt: claims.exp ?? null }
      : false;
  }
}
