import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  type Actor,
  type CreateVaultRequest,
  type Metadata,
  type UpdateVaultRequest,
  type Vault,
  type VaultDeleted,
} from '@agentry/contracts';
import type { Vault as VaultRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { AuditLogService } from '../audit/audit-log.service.js';
import { ArchivableCatalogService } from '../common/archivable-catalog.service.js';
import { toVaultDto } from './vault.mapper.js';
import { VaultsRepository } from './vaults.repository.js';

type VaultFields = { displayName: string; metadata: Metadata };

/** Archived vaults keep their credentials but cannot be changed or attached any more. */
@Injectable()
export class VaultsService extends ArchivableCatalogService<VaultRow, Vault, VaultFields> {
  constructor(vaults: VaultsRepository, @Inject(CLOCK) clock: Clock, audit: AuditLogService) {
    super(vaults, 'Vault', 'cannot be changed', toVaultDto, clock);
    this.changes = { recorder: audit, resourceType: 'vault' };
  }

  create(actor: Actor, body: CreateVaultRequest): Promise<Vault> {
    return this.insert(actor, ID_PREFIXES.vault, {
      displayName: body.display_name,
      metadata: body.metadata ?? {},
    });
  }

  update(actor: Actor, id: string, body: UpdateVaultRequest): Promise<Vault> {
    return this.patch(actor, id, body.display_name ? { displayName: body.display_name } : {}, body.metadata);
  }

  /**
   * Every vault of a `vault_ids` list exists in the actor's namespace and is not archived: a session or a
   * deployment never names a vault it could not draw credentials from. Errors name the list's index.
   */
  async assertAttachable(actor: Actor, ids: readonly string[]): Promise<void> {
    for (const [i, id] of ids.entries()) {
      const vault = await this.require(actor, id).catch((err: unknown) => {
        throw AppError.is(err, 'NOT_FOUND')
          ? new AppError('NOT_FOUND', `vault_ids.${i}: ${err.message}`, { cause: err })
          : err;
      });
      if (vault.archivedAt) throw new AppError('INVALID_REQUEST', `vault_ids.${i}: vault ${id} is archived`);
    }
  }

  async delete(actor: Actor, id: string): Promise<VaultDeleted> {
    await this.remove(actor, id);
    return { id, type: 'vault_deleted' };
  }

  requireActive(actor: Actor, id: string): Promise<VaultRow> {
    return this.requireUnarchived(actor, id);
  }
}
