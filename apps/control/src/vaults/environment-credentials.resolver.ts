import { Injectable } from '@nestjs/common';
import type { CredentialAuth, SandboxCredential } from '@agentry/contracts';
import type { CredentialSecrets } from './credential-secrets.js';
import { SecretCipher } from './secret-cipher.js';
import { SessionCredentialsRepository } from './session-credentials.repository.js';

/**
 * The `environment_variable` credentials of a session's vaults, for the worker's egress proxy. When two
 * vaults name the same variable, the first vault in the session's `vault_ids` wins (as for MCP servers).
 */
@Injectable()
export class EnvironmentCredentialsResolver {
  constructor(
    private readonly repository: SessionCredentialsRepository,
    private readonly cipher: SecretCipher,
  ) {}

  async resolve(tenantId: string, sessionId: string): Promise<SandboxCredential[]> {
    const vaultIds = await this.repository.vaultIdsOf(tenantId, sessionId);
    if (!vaultIds?.length) return [];
    const rows = await this.repository.activeCredentials(tenantId, vaultIds, ['environment_variable']);
    const vaultRank = new Map(vaultIds.map((id, index) => [id, index]));
    const ranked = [...rows].sort(
      (a, b) => (vaultRank.get(a.vaultId) ?? 0) - (vaultRank.get(b.vaultId) ?? 0),
    );
    const byName = new Map<string, SandboxCredential>();
    for (const row of ranked) {
      const target = row.target as Extract<CredentialAuth, { type: 'environment_variable' }>;
      if (byName.has(target.secret_name)) continue;
      const secrets = JSON.parse(this.cipher.open(row, row.id)) as CredentialSecrets;
      byName.set(target.secret_name, {
        credential_id: row.id,
        secret_name: target.secret_name,
        secret_value: secrets.secret_value ?? '',
        networking: target.networking,
        injection_location: {
          header: target.injection_location?.header ?? true,
          body: target.injection_location?.body ?? false,
        },
      });
    }
    return [...byName.values()];
  }
}
