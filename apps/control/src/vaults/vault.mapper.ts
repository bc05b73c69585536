import type { Vault, VaultCredential } from '@agentry/db';
import type { Credential, CredentialAuth, Metadata, Vault as VaultDto } from '@agentry/contracts';

export function toVaultDto(row: Vault): VaultDto {
  return {
    type: 'vault',
    id: row.id,
    display_name: row.displayName,
    metadata: row.metadata as Metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

/** Only the public `target` is read: the sealed secret columns never reach a reply. */
export function toCredentialDto(row: VaultCredential): Credential {
  return {
    type: 'vault_credential',
    id: row.id,
    vault_id: row.vaultId,
    display_name: row.displayName,
    auth: row.target as CredentialAuth,
    metadata: row.metadata as Metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}
