import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateCredentialRequest,
  type Credential,
  type CredentialAuth,
  type CredentialDeleted,
  type ListParams,
  type Metadata,
  type Page,
  type UpdateCredentialRequest,
} from '@agentry/contracts';
import type { VaultCredential } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { AuditLogService } from '../audit/audit-log.service.js';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import {
  applyCredentialAuthUpdate,
  splitCredentialAuth,
  type CredentialSecrets,
} from './credential-secrets.js';
import { SecretCipher } from './secret-cipher.js';
import { toCredentialDto } from './vault.mapper.js';
import { VaultCredentialsRepository } from './vault-credentials.repository.js';
import { VaultsService } from './vaults.service.js';

@Injectable()
export class VaultCredentialsService {
  constructor(
    private readonly vaults: VaultsService,
    private readonly credentials: VaultCredentialsRepository,
    private readonly cipher: SecretCipher,
    private readonly audit: AuditLogService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(actor: Actor, vaultId: string, body: CreateCredentialRequest): Promise<Credential> {
    assertCanWrite(actor);
    await this.vaults.requireActive(actor, vaultId);
    const id = newId(ID_PREFIXES.vaultCredential);
    const { target, secrets } = splitCredentialAuth(body.auth);
    const row = await this.credentials.create(actor, vaultId, id, {
      type: target.type,
      displayName: body.display_name ?? null,
      target,
      metadata: body.metadata ?? {},
      ...this.cipher.seal(JSON.stringify(secrets), id),
    });
    await this.recorded(actor, 'create', vaultId, id);
    return toCredentialDto(row);
  }

  async get(actor: Actor, vaultId: string, id: string): Promise<Credential> {
    return toCredentialDto(await this.require(actor, vaultId, id));
  }

  async update(
    actor: Actor,
    vaultId: string,
    id: string,
    body: UpdateCredentialRequest,
  ): Promise<Credential> {
    assertCanWrite(actor);
    await this.vaults.requireActive(actor, vaultId);
    const row = await this.require(actor, vaultId, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Credential ${id} is archived and cannot be changed`);
    const sealed = body.auth ? this.reseal(row, body.auth) : {};
    const updated = await this.credentials.update(actor, vaultId, id, {
      ...sealed,
      ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
      metadata: applyMetadataPatch(row.metadata as Metadata, body.metadata),
    });
    return toCredentialDto(updated);
  }

  async archive(actor: Actor, vaultId: string, id: string): Promise<Credential> {
    assertCanWrite(actor);
    const row = await this.require(actor, vaultId, id);
    if (row.archivedAt) return toCredentialDto(row);
    const archived = await this.credentials.update(actor, vaultId, id, { archivedAt: this.clock.now() });
    await this.recorded(actor, 'archive', vaultId, id);
    return toCredentialDto(archived);
  }

  async delete(actor: Actor, vaultId: string, id: string): Promise<CredentialDeleted> {
    assertCanWrite(actor);
    await this.require(actor, vaultId, id);
    await this.credentials.delete(actor, vaultId, id);
    await this.recorded(actor, 'delete', vaultId, id);
    return { id, type: 'vault_credential_deleted' };
  }

  async list(actor: Actor, vaultId: string, query: ListParams): Promise<Page<Credential>> {
    await this.vaults.require(actor, vaultId);
    const rows = await this.credentials.list(actor, vaultId, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    return toIdPage(rows, query.limit, toCredentialDto);
  }

  /** The decrypted secrets, for the components that inject them at egress; never part of a reply. */
  async revealSecrets(actor: Actor, vaultId: string, id: string): Promise<CredentialSecrets> {
    return this.open(await this.require(actor, vaultId, id));
  }

  /** The audit entry of a change, which is also its `vault_credential.*` webhook event (with its vault). */
  private recorded(actor: Actor, action: string, vaultId: string, id: string): Promise<void> {
    return this.audit.record(actor, {
      action,
      resourceType: 'vault_credential',
      resourceId: id,
      details: { vaultId },
    });
  }

  private async require(actor: Actor, vaultId: string, id: string): Promise<VaultCredential> {
    await this.vaults.require(actor, vaultId);
    const row = await this.credentials.find(actor, vaultId, id);
    if (!row) throw new AppError('NOT_FOUND', `Credential ${id} not found in vault ${vaultId}`);
    return row;
  }

  private open(row: VaultCredential): CredentialSecrets {
    return JSON.parse(this.cipher.open(row, row.id)) as CredentialSecrets;
  }

  private reseal(row: VaultCredential, auth: NonNullable<UpdateCredentialRequest['auth']>) {
    const next = applyCredentialAuthUpdate(row.target as CredentialAuth, this.open(row), auth);
    return { target: next.target, ...this.cipher.seal(JSON.stringify(next.secrets), row.id) };
  }
}
