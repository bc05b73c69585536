import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateVaultRequest,
  type ListParams,
  type Metadata,
  type Page,
  type UpdateVaultRequest,
  type Vault,
  type VaultDeleted,
} from '@agentry/contracts';
import type { Vault as VaultRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { toVaultDto } from './vault.mapper.js';
import { VaultsRepository } from './vaults.repository.js';

@Injectable()
export class VaultsService {
  constructor(
    private readonly vaults: VaultsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(actor: Actor, body: CreateVaultRequest): Promise<Vault> {
    assertCanWrite(actor);
    const row = await this.vaults.create(actor, newId(ID_PREFIXES.vault), {
      displayName: body.display_name,
      metadata: body.metadata ?? {},
    });
    return toVaultDto(row);
  }

  async get(actor: Actor, id: string): Promise<Vault> {
    return toVaultDto(await this.require(actor, id));
  }

  async require(actor: Actor, id: string): Promise<VaultRow> {
    const row = await this.vaults.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Vault ${id} not found`);
    return row;
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

  /** Archived vaults keep their credentials but cannot be changed or attached any more. */
  async archive(actor: Actor, id: string): Promise<Vault> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt) return toVaultDto(row);
    return toVaultDto(await this.vaults.update(actor, id, { archivedAt: this.clock.now() }));
  }

  async delete(actor: Actor, id: string): Promise<VaultDeleted> {
    assertCanWrite(actor);
    await this.require(actor, id);
    await this.vaults.delete(actor, id);
    return { id, type: 'vault_deleted' };
  }

  async list(actor: Actor, query: ListParams): Promise<Page<Vault>> {
    const rows = await this.vaults.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    return toIdPage(rows, query.limit, toVaultDto);
  }

  async requireActive(actor: Actor, id: string): Promise<VaultRow> {
    const row = await this.require(actor, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Vault ${id} is archived and cannot be changed`);
    return row;
  }
}
