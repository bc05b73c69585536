import { Controller, HttpCode, Post, UseFilters } from '@nestjs/common';
import {
  ChangePasswordRequestSchema,
  ControlSubjects as A,
  PubSubjects,
  type AccessChanged,
  type Actor,
  type ChangePasswordRequest,
} from '@agentry/contracts';
import { NatsBus, RpcClient } from '@agentry/platform';
import { ApiErrorFilter } from '../api/api-error.filter.js';
import { ZodBody } from '../http/zod-params.js';
import { ChangesAccess } from './changes-access.decorator.js';
import { CurrentActor } from './current-actor.decorator.js';
import { TokenRevocations } from './token-revocations.js';

/**
 * `POST /api/auth/password`: a signed-in user changes their own password. Every token the user holds
 * is revoked with it, the one of this request included: whoever knew the old password is out.
 */
@Controller('api/auth')
@UseFilters(ApiErrorFilter)
export class PasswordController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly revocations: TokenRevocations,
    private readonly bus: NatsBus,
  ) {}

  @Post('password')
  @HttpCode(200)
  @ChangesAccess()
  async change(
    @CurrentActor() actor: Actor,
    @ZodBody(ChangePasswordRequestSchema) body: ChangePasswordRequest,
  ) {
    const result = await this.rpc.request(A.changePassword, { actor, body });
    if (actor.userId) {
      await this.revocations.revokeAllOf(actor.userId);
      // Published after the revocations are in Redis, so no replica re-reads them too early.
      this.bus.publish(PubSubjects.accessChanged, {
        v: 1,
        tenantId: actor.tenantId,
        userId: actor.userId,
      } satisfies AccessChanged);
    }
    return result;
  }
}
