import { Controller } from '@nestjs/common';
import { EnvironmentCredentialSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { EnvironmentCredentialsResolver } from './environment-credentials.resolver.js';

/** Serves the workers' look-ups of a session's environment-variable credentials; the reply carries secrets, so nothing here logs it. */
@Controller()
export class EnvironmentCredentialsHandler {
  constructor(private readonly resolver: EnvironmentCredentialsResolver) {}

  @RpcHandler(S.resolve)
  async resolve(req: RpcParsedRequest<typeof S.resolve>) {
    return { credentials: await this.resolver.resolve(req.tenantId, req.sessionId) };
  }
}
