import { Injectable } from '@nestjs/common';
import { McpCredentialSubjects, type McpServerCredential } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';

/** Asks control for the session's vault credentials that match the given MCP server URLs, and for refreshes. */
@Injectable()
export class McpCredentialsClient {
  constructor(private readonly rpc: RpcClient) {}

  /** Credentials by server URL; servers without a matching credential are absent. */
  async credentialsFor(
    tenantId: string,
    sessionId: string,
    serverUrls: string[],
  ): Promise<Map<string, McpServerCredential>> {
    if (serverUrls.length === 0) return new Map();
    const reply = await this.rpc.request(McpCredentialSubjects.resolve, { tenantId, sessionId, serverUrls });
    return new Map(reply.credentials.map((c) => [c.server_url, c]));
  }

  /** A fresh access token for an `mcp_oauth` credential; rejects with why the refresh failed. */
  refresh(
    tenantId: string,
    sessionId: string,
    credentialId: string,
  ): Promise<{ access_token: string; expires_at: string | null }> {
    return this.rpc.request(McpCredentialSubjects.refresh, { tenantId, sessionId, credentialId });
  }
}
