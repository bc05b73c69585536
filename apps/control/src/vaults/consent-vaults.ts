import { Inject, Injectable } from '@nestjs/common';
import { AppError, ID_PREFIXES, newId, type Actor } from '@agentry/contracts';
import type { ServiceDatabase } from '@agentry/db';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';
import { AuditLogService } from '../audit/audit-log.service.js';
import { SecretCipher } from './secret-cipher.js';

/**
 * Whose consent vault a caller fills: a signed-in user's, or an API key's (a key is its own caller, apart
 * from the user who made it). Null for a caller with neither (the platform itself).
 */
export function consentOwnerOf(caller: { userId: string | null; apiKeyId: string | null }): string | null {
  if (caller.apiKeyId) return `api_key:${caller.apiKeyId}`;
  if (caller.userId) return `user:${caller.userId}`;
  return null;
}

/**
 * The vault of each caller's MCP consent tokens: one per caller and namespace, made the first time a consent
 * of theirs yields a token. It is an ordinary vault (listed, archivable: archiving it takes every consent
 * back); only the sessions the same caller creates draw on it, after the session's own `vault_ids`.
 */
@Injectable()
export class ConsentVaults {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly cipher: SecretCipher,
    private readonly audit: AuditLogService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Keeps `accessToken` sealed as the caller's `static_bearer` for `serverUrl`, in place of any earlier one. */
  async store(
    actor: Actor,
    serverName: string,
    serverUrl: string,
    accessToken: string,
  ): Promise<{ vault_id: string; credential_id: string }> {
    const owner = consentOwnerOf(actor);
    if (!owner) throw new AppError('PERMISSION_DENIED', 'Only a user or an API key can keep consent tokens');
    const vault = await this.db.vault.upsert({
      where: {
        tenantId_namespaceId_consentOwner: {
          tenantId: actor.tenantId,
          namespaceId: actor.namespaceId,
          consentOwner: owner,
        },
      },
      create: {
        id: newId(ID_PREFIXES.vault),
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        displayName: `MCP consents of ${owner}`,
        metadata: { purpose: 'mcp_consent' },
        consentOwner: owner,
      },
      // A vault the caller archived comes back when they consent again.
      update: { archivedAt: null },
    });
    const id = newId(ID_PREFIXES.vaultCredential);
    await this.db.$transaction([
      this.db.vaultCredential.updateMany({
        where: {
          tenantId: actor.tenantId,
          vaultId: vault.id,
          archivedAt: null,
          target: { path: ['mcp_server_url'], equals: serverUrl },
        },
        data: { archivedAt: this.clock.now() },
      }),
      this.db.vaultCredential.create({
        data: {
          id,
          tenantId: actor.tenantId,
          vaultId: vault.id,
          type: 'static_bearer',
          displayName: `consent for MCP server ${serverName}`,
          target: { type: 'static_bearer', mcp_server_url: serverUrl },
          metadata: {},
          ...this.cipher.seal(JSON.stringify({ token: accessToken }), id),
        },
      }),
    ]);
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'vault_credential',
      resourceId: id,
      details: { vaultId: vault.id, source: 'mcp_consent' },
    });
    return { vault_id: vault.id, credential_id: id };
  }
}
