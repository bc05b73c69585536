import { Injectable } from '@nestjs/common';
import { McpCredentialSubjects } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';

/** Asks control for the session's vault credentials that match the given MCP server URLs. */
@Injectable()
export class McpCredentialsClient {
  constructor(private readonly rpc: RpcClient) {}

  /** Access tokens by server URL; servers without a matching credential are absent. */
  async tokensFor(tenantId: string, sessionId: string, serverUrls: string[]): Promise<Map<string, string>> {
    if (serverUrls.length === 0) return new Map();
    const reply = await this.rpc.request(McpCredentialSubjects.resolve, { tenantId, sessionId, serverUrls });
    return new Map(reply.credentials.map((c) => [c.server_url, c.access_token]));
  }
}
