import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { VaultCredential, ServiceDatabase } from '@agentry/db';
import { consentOwnerOf } from './consent-vaults.js';

/** Reads for run-time use of a session's vaults; the session id and tenant together scope every query. */
@Injectable()
export class SessionCredentialsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  /** The session's `vault_ids` in the order given at creation; null when the session does not exist. */
  async vaultIdsOf(tenantId: string, sessionId: string): Promise<string[] | null> {
    // By primary key, the tenant checked on the row (see `SessionsRepository.find`).
    const row = await this.db.session.findUnique({
      where: { id: sessionId },
      select: { vaultIds: true, tenantId: true },
    });
    return row?.tenantId === tenantId ? row.vaultIds : null;
  }

  /**
   * The session's `vault_ids`, then the consent vault of the caller that created it (tokens that caller's MCP
   * consents yielded): the vaults its MCP servers draw credentials from, in order. Another caller's consent
   * vault is left out even when `vault_ids` names it: consent tokens serve only their owner. Null when the
   * session does not exist.
   */
  async mcpVaultIdsOf(tenantId: string, sessionId: string): Promise<string[] | null> {
    const row = await this.db.session.findUnique({
      where: { id: sessionId },
      select: {
        vaultIds: true,
        tenantId: true,
        namespaceId: true,
        createdById: true,
        createdByApiKeyId: true,
      },
    });
    if (row?.tenantId !== tenantId) return null;
    const owner = consentOwnerOf({ userId: row.createdById, apiKeyId: row.createdByApiKeyId });
    const vaults = await this.db.vault.findMany({
      where: {
        tenantId,
        namespaceId: row.namespaceId,
        OR: [{ id: { in: row.vaultIds } }, ...(owner ? [{ consentOwner: owner }] : [])],
      },
      select: { id: true, consentOwner: true },
    });
    const foreign = new Set(
      vaults.filter((v) => v.consentOwner !== null && v.consentOwner !== owner).map((v) => v.id),
    );
    const listed = row.vaultIds.filter((id) => !foreign.has(id));
    const consent = owner ? vaults.find((v) => v.consentOwner === owner) : undefined;
    return consent && !listed.includes(consent.id) ? [...listed, consent.id] : listed;
  }

  /** Live credentials of the given types in live vaults, newest change first. */
  activeCredentials(tenantId: string, vaultIds: string[], types: string[]): Promise<VaultCredential[]> {
    return this.db.vaultCredential.findMany({
      where: {
        tenantId,
        vaultId: { in: vaultIds },
        type: { in: types },
        archivedAt: null,
        vault: { archivedAt: null },
      },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    });
  }
}
