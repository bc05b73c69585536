import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ActorSchema, type Actor } from '@agentry/contracts';
import { GATEWAY_CONFIG, type GatewayEnv } from '../config/env.js';

/** Claims of a user token: the actor, flattened. */
export interface UserTokenClaims {
  sub: string;
  tid: string;
  nsid: string;
  role: Actor['role'];
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(GATEWAY_CONFIG) config: GatewayEnv) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.AGENTRY_JWT_SECRET,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(claims: UserTokenClaims): Actor | false {
    const parsed = ActorSchema.safeParse({
      tenantId: claims.tid,
      namespaceId: claims.nsid,
      userId: claims.sub,
      apiKeyId: null,
      role: claims.role,
    });
    return parsed.success ? parsed.data : false;
  }
}
