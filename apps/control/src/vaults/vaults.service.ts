import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateVaultRequest,
  type Metadata,
  type UpdateVaultRequest,
  type Vault,
  type VaultDeleted,
} from '@agentry/contracts';
import type { Vault as VaultRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { ArchivableCatalogService } from '../common/archivable-catalog.service.js';
import { toVaultDto } from './vault.mapper.js';
import { VaultsRepository } from './vaults.repository.js';

/** Archived vaults keep their credentials but cannot be changed or attached any more. */
@Injectable()
export class VaultsService extends ArchivableCatalogService<VaultRow, Vault> {
  constructor(
    private readonly vaults: VaultsRepository,
    @Inject(CLOCK) clock: Clock,
  ) {
    super(vaults, 'Vault', toVaultDto, clock);
  }

  async create(actor: Actor, body: CreateVaultRequest): Promise<Vault> {
    assertCanWrite(actor);
    const row = await this.vaults.create(actor, newId(ID_PREFIXES.vault), {
      displayName: body.display_name,
      metadata: body.metadata ?? {},
    });
    return toVaultDto(row);
  }

  async update(actor: Actor, id: string, body: UpdateVaultRequest): Promise<Vault> {
    assertCanWrite(actor);
    const row = await this.requireActive(actor, id);
    const updated = await this.vaults.update(actor, id, {
      ...(body.display_name ? { displayName: body.display_name } : {}),
      metadata: applyMetadataPatch(row.metadata as Metadata, body.metadata),
    });
    return toVaultDto(updated);
  }

  async delete(actor: Actor, id: string): Promise<VaultDeleted> {
    await this.remove(actor, id);
    return { id, type: 'vault_deleted' };
  }

  async requireActive(actor: Actor, id: string): Promise<VaultRow> {
    const row = await this.require(actor, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Vault ${id} is archived and cannot be changed`);
    return row;
  }
}
