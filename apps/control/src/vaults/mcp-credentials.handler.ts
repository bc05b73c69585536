import { Controller } from '@nestjs/common';
import { McpCredentialSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { ConsentVaults } from './consent-vaults.js';
import { McpCredentialsResolver } from './mcp-credentials.resolver.js';
import { McpOAuthRefresher } from './mcp-oauth-refresher.js';

/** Serves the dataplane's run-time credential lookups; the reply carries secrets, so nothing here logs it. */
@Controller()
export class McpCredentialsHandler {
  constructor(
    private readonly resolver: McpCredentialsResolver,
    private readonly refresher: McpOAuthRefresher,
    private readonly consents: ConsentVaults,
  ) {}

  @RpcHandler(S.resolve)
  async resolve(req: RpcParsedRequest<typeof S.resolve>) {
    return { credentials: await this.resolver.resolve(req.tenantId, req.sessionId, req.serverUrls) };
  }

  @RpcHandler(S.refresh)
  refresh(req: RpcParsedRequest<typeof S.refresh>) {
    return this.refresher.refresh(req.tenantId, req.sessionId, req.credentialId);
  }

  @RpcHandler(S.storeConsent)
  storeConsent(req: RpcParsedRequest<typeof S.storeConsent>) {
    return this.consents.store(req.actor, req.serverName, req.serverUrl, req.accessToken);
  }
}
