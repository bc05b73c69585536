import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateMemoryStoreRequest,
  type MemoryStore,
  type Metadata,
  type UpdateMemoryStoreRequest,
} from '@agentry/contracts';
import type { MemoryStore as StoreRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { ArchivableCatalogService } from '../common/archivable-catalog.service.js';
import { toMemoryStoreDto } from './memory.mapper.js';
import { MemoryStoresRepository } from './memory-stores.repository.js';

@Injectable()
export class MemoryStoresService extends ArchivableCatalogService<StoreRow, MemoryStore> {
  constructor(
    private readonly stores: MemoryStoresRepository,
    @Inject(CLOCK) clock: Clock,
  ) {
    super(stores, 'Memory store', toMemoryStoreDto, clock);
  }

  async create(actor: Actor, body: CreateMemoryStoreRequest): Promise<MemoryStore> {
    assertCanWrite(actor);
    const row = await this.stores.create(actor, newId(ID_PREFIXES.memoryStore), {
      name: body.name,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
    });
    return toMemoryStoreDto(row);
  }

  /** The store, which must accept writes: archived stores are read-only. */
  async requireWritable(actor: Actor, id: string): Promise<StoreRow> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Memory store ${id} is archived and read-only`);
    return row;
  }

  async update(actor: Actor, id: string, body: UpdateMemoryStoreRequest): Promise<MemoryStore> {
    const row = await this.requireWritable(actor, id);
    const updated = await this.stores.update(actor, id, {
      ...(body.name ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      metadata: applyMetadataPatch(row.metadata as Metadata, body.metadata),
    });
    return toMemoryStoreDto(updated);
  }

  async delete(actor: Actor, id: string): Promise<{ id: string; type: 'memory_store_deleted' }> {
    await this.remove(actor, id);
    return { id, type: 'memory_store_deleted' };
  }
}
