import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateMemoryStoreRequest,
  type ListParams,
  type MemoryStore,
  type Metadata,
  type Page,
  type UpdateMemoryStoreRequest,
} from '@agentry/contracts';
import type { MemoryStore as StoreRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { toMemoryStoreDto } from './memory.mapper.js';
import { MemoryStoresRepository } from './memory-stores.repository.js';

@Injectable()
export class MemoryStoresService {
  constructor(
    private readonly stores: MemoryStoresRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(actor: Actor, body: CreateMemoryStoreRequest): Promise<MemoryStore> {
    assertCanWrite(actor);
    const row = await this.stores.create(actor, newId(ID_PREFIXES.memoryStore), {
      name: body.name,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
    });
    return toMemoryStoreDto(row);
  }

  async get(actor: Actor, id: string): Promise<MemoryStore> {
    return toMemoryStoreDto(await this.require(actor, id));
  }

  async require(actor: Actor, id: string): Promise<StoreRow> {
    const row = await this.stores.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Memory store ${id} not found`);
    return row;
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

  async archive(actor: Actor, id: string): Promise<MemoryStore> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt) return toMemoryStoreDto(row);
    return toMemoryStoreDto(await this.stores.update(actor, id, { archivedAt: this.clock.now() }));
  }

  async delete(actor: Actor, id: string): Promise<{ id: string; type: 'memory_store_deleted' }> {
    assertCanWrite(actor);
    await this.require(actor, id);
    await this.stores.delete(actor, id);
    return { id, type: 'memory_store_deleted' };
  }

  async list(actor: Actor, query: ListParams): Promise<Page<MemoryStore>> {
    const rows = await this.stores.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    return toIdPage(rows, query.limit, toMemoryStoreDto);
  }
}
