import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlAccessSubjects as A, ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { AuthService } from './auth.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class AuthHandler {
  constructor(private readonly auth: AuthService) {}

  @RpcHandler(S.login)
  login(@RpcBody(S.login) body: RpcParsedRequest<typeof S.login>) {
    return this.auth.login(body.username, body.password, body.tenant);
  }

  @RpcHandler(S.verifyApiKey)
  verifyApiKey(@RpcBody(S.verifyApiKey) body: RpcParsedRequest<typeof S.verifyApiKey>) {
    return this.auth.verifyApiKey(body.key);
  }

  @RpcHandler(S.userActor)
  userActor(@RpcBody(S.userActor) body: RpcParsedRequest<typeof S.userActor>) {
    return this.auth.userActor(body.userId);
  }

  @RpcHandler(A.resolveUser)
  resolveUser(@RpcBody(A.resolveUser) body: RpcParsedRequest<typeof A.resolveUser>) {
    return this.auth.resolveUser(body.userId, body.namespaceId ?? null);
  }
}
