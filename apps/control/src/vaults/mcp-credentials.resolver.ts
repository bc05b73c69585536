import { Injectable } from '@nestjs/common';
import type { CredentialAuth, McpServerCredential } from '@agentry/contracts';
import type { VaultCredential } from '@agentry/db';
import type { CredentialSecrets } from './credential-secrets.js';
import { SecretCipher } from './secret-cipher.js';
import { SessionCredentialsRepository } from './session-credentials.repository.js';

const MCP_CREDENTIAL_TYPES = ['static_bearer', 'mcp_oauth'];

/**
 * Matches a session's vault credentials to MCP servers by URL, as CMA does: the first vault in the session's
 * `vault_ids` holding a credential for the server wins; after them comes the consent vault of the caller who
 * created the session (see `ConsentVaults`). Only matched secrets are decrypted.
 */
@Injectable()
export class McpCredentialsResolver {
  constructor(
    private readonly repository: SessionCredentialsRepository,
    private readonly cipher: SecretCipher,
  ) {}

  async resolve(tenantId: string, sessionId: string, serverUrls: string[]): Promise<McpServerCredential[]> {
    const vaultIds = await this.repository.mcpVaultIdsOf(tenantId, sessionId);
    if (!vaultIds?.length || serverUrls.length === 0) return [];
    const rows = await this.repository.activeCredentials(tenantId, vaultIds, MCP_CREDENTIAL_TYPES);
    const vaultRank = new Map(vaultIds.map((id, index) => [id, index]));
    // Stable sort: vault order first, then the repository's newest-first order inside a vault.
    const ranked = [...rows].sort(
      (a, b) => (vaultRank.get(a.vaultId) ?? 0) - (vaultRank.get(b.vaultId) ?? 0),
    );
    const matched: McpServerCredential[] = [];
    for (const url of new Set(serverUrls)) {
      const key = comparableUrl(url);
      const row = ranked.find((r) => key !== undefined && comparableUrl(serverUrlOf(r)) === key);
      if (row)
        matched.push({
          server_url: url,
          credential_id: row.id,
          vault_id: row.vaultId,
          type: row.type as McpServerCredential['type'],
          access_token: this.accessToken(row),
          ...oauthState(row),
        });
    }
    return matched;
  }

  private accessToken(row: VaultCredential): string {
    const secrets = JSON.parse(this.cipher.open(row, row.id)) as CredentialSecrets;
    return (row.type === 'static_bearer' ? secrets.token : secrets.access_token) ?? '';
  }
}

/** When an `mcp_oauth` token expires and whether it can be refreshed; nothing for a static bearer. */
function oauthState(row: VaultCredential): Pick<McpServerCredential, 'expires_at' | 'refreshable'> {
  const target = row.target as Partial<Extract<CredentialAuth, { type: 'mcp_oauth' }>>;
  if (row.type !== 'mcp_oauth') return {};
  return { expires_at: target.expires_at ?? null, refreshable: Boolean(target.refresh) };
}

function serverUrlOf(row: VaultCredential): string {
  const target = row.target as Partial<CredentialAuth>;
  return 'mcp_server_url' in target && typeof target.mcp_server_url === 'string' ? target.mcp_server_url : '';
}

/** URLs compare as the WHATWG parser normalizes them (case of scheme and host, default port), less a trailing "/". */
function comparableUrl(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  url.hash = '';
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  return `${url.protocol}//${url.host}${path}${url.search}`;
}
