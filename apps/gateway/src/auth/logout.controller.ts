import { Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { AppError, PubSubjects, type AccessChanged } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';
import { ApiErrorFilter } from '../api/api-error.filter.js';
import { ChangesAccess } from './changes-access.decorator.js';
import type { TokenActor } from './user-tokens.js';
import { TokenRevocations } from './token-revocations.js';

/** `POST /api/auth/logout`: revokes the user token the request carries, on every replica. */
@Controller('api/auth')
@UseFilters(ApiErrorFilter)
export class LogoutController {
  constructor(
    private readonly revocations: TokenRevocations,
    private readonly bus: NatsBus,
  ) {}

  @Post('logout')
  @HttpCode(200)
  @ChangesAccess()
  async logout(@Req() request: { user?: TokenActor; actor?: { apiKeyId: string | null } }) {
    const token = request.user;
    if (!token?.userId || request.actor?.apiKeyId) {
      throw new AppError(
        'PERMISSION_DENIED',
        'Logging out applies to user tokens; revoke an API key with DELETE /api/keys/{id}',
      );
    }
    if (!token.tokenId || !token.tokenExpiresAt) {
      throw new AppError(
        'INVALID_REQUEST',
        'This token has no id and cannot be revoked; it expires on its own',
      );
    }
    await this.revocations.revoke(token.userId, token.tokenId, token.tokenExpiresAt);
    // Other replicas drop the cached verdict and read the revocation on the token's next use.
    this.bus.publish(PubSubjects.accessChanged, { v: 1, userId: token.userId } satisfies AccessChanged);
    return { ok: true };
  }
}
