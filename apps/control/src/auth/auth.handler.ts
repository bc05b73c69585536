import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AuthService } from './auth.service.js';

@Controller()
export class AuthHandler {
  constructor(private readonly auth: AuthService) {}

  @RpcHandler(S.login)
  login(body: RpcParsedRequest<typeof S.login>) {
    return this.auth.login(body.username, body.password, body.tenant);
  }

  @RpcHandler(S.verifyApiKey)
  verifyApiKey(body: RpcParsedRequest<typeof S.verifyApiKey>) {
    return this.auth.verifyApiKey(body.key);
  }

  @RpcHandler(S.userActor)
  userActor(body: RpcParsedRequest<typeof S.userActor>) {
    return this.auth.userActor(body.userId);
  }

  @RpcHandler(S.resolveUser)
  resolveUser(body: RpcParsedRequest<typeof S.resolveUser>) {
    return this.auth.resolveUser(body.userId, body.namespaceId ?? null);
  }
}
