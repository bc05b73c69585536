import { Controller, HttpCode, Post, UseFilters } from '@nestjs/common';
import { ChangePasswordRequestSchema, ControlAccessSubjects as A, type Actor, type ChangePasswordRequest } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { ApiErrorFilter } from '../api/api-error.filter.js';
import { ZodBody } from '../http/zod-params.js';
import { ChangesAccess } from './changes-access.decorator.js';
import { CurrentActor } from './current-actor.decorator.js';

/** `POST /api/auth/password`: a signed-in user changes their own password. */
@Controller('api/auth')
@UseFilters(ApiErrorFilter)
export class PasswordController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('password')
  @HttpCode(200)
  @ChangesAccess()
  change(@CurrentActor() actor: Actor, @ZodBody(ChangePasswordRequestSchema) body: ChangePasswordRequest) {
    return this.rpc.request(A.changePassword, { actor, body });
  }
}
