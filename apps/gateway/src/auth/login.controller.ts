import { randomUUID } from 'node:crypto';
import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppError, ControlSubjects, LoginTenantSchema } from '@agentry/contracts';
import { Public, RpcClient } from '@agentry/platform';
import { z } from 'zod';

import { ZodBody } from '../http/zod-params.js';
import type { UserTokenClaims } from './user-tokens.js';
import { JwtKeys } from './jwt-keys.js';
import { LoginThrottle } from './login-throttle.js';
import { TokenRevocations } from './token-revocations.js';

export const LoginBodySchema = z.strictObject({
  username: z.string().min(1, 'username is required').max(256),
  password: z.string().min(1, 'password is required').max(1024),
  /** Slug or id of the tenant: needed only when the username exists in several tenants. */
  tenant: LoginTenantSchema.optional(),
});

/**
 * `POST /api/auth/login`: username + password (+ the tenant, when the name is used in several) → a user
 * token for the console and curl users.
 * Repeated wrong passwords lock the username, from the address they came from, for a while (see LoginThrottle).
 */
@Controller('api/auth')
export class LoginController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly jwt: JwtService,
    private readonly throttle: LoginThrottle,
    private readonly keys: JwtKeys,
    private readonly revocations: TokenRevocations,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  async login(
    @ZodBody(LoginBodySchema) body: z.infer<typeof LoginBodySchema>,
    @Req() request: { ip?: string },
  ) {
    const address = request.ip ?? 'unknown';
    await this.throttle.assertAllowed(body.username, address);
    const user = await this.rpc.request(ControlSubjects.login, body).catch(async (error: unknown) => {
      if (AppError.is(error, 'UNAUTHENTICATED')) await this.throttle.recordFailure(body.username, address);
      throw error;
    });
    await this.throttle.recordSuccess(body.username, address);
    const claims: UserTokenClaims = {
      sub: user.id,
      tid: user.tenantId,
      nsid: user.namespaceId,
      role: user.role,
    };
    // The current key signs and names itself; the token's id lets logout and a password change revoke it.
    const jti = randomUUID();
    const token = await this.jwt.signAsync(claims, {
      keyid: this.keys.current.kid,
      jwtid: jti,
      secret: this.keys.current.secret,
    });
    await this.revocations.track(user.id, jti);
    return { token, userId: user.id, username: user.username, roles: [user.role] };
  }
}
