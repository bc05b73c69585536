import { Inject, Injectable } from '@nestjs/common';
import {
  ID_PREFIXES,
  type Actor,
  type CreateMemoryStoreRequest,
  type MemoryStore,
  type Metadata,
  type UpdateMemoryStoreRequest,
} from '@agentry/contracts';
import type { MemoryStore as StoreRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { ArchivableCatalogService } from '../common/archivable-catalog.service.js';
import { toMemoryStoreDto } from './memory.mapper.js';
import { MemoryStoresRepository } from './memory-stores.repository.js';

type StoreFields = { name: string; description: string | null; metadata: Metadata };

@Injectable()
export class MemoryStoresService extends ArchivableCatalogService<StoreRow, MemoryStore, StoreFields> {
  constructor(stores: MemoryStoresRepository, @Inject(CLOCK) clock: Clock, audit: AuditLogService) {
    super(stores, 'Memory store', 'read-only', toMemoryStoreDto, clock);
    this.changes = { recorder: audit, resourceType: 'memory_store' };
  }

  create(actor: Actor, body: CreateMemoryStoreRequest): Promise<MemoryStore> {
    return this.insert(actor, ID_PREFIXES.memoryStore, {
      name: body.name,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
    });
  }

  /** The store, which must accept writes: archived stores are read-only. */
  requireWritable(actor: Actor, id: string): Promise<StoreRow> {
    assertCanWrite(actor);
    return this.requireUnarchived(actor, id);
  }

  update(actor: Actor, id: string, body: UpdateMemoryStoreRequest): Promise<MemoryStore> {
    const fields = {
      ...(body.name ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    };
    return this.patch(actor, id, fields, body.metadata);
  }

  async delete(actor: Actor, id: string): Promise<{ id: string; type: 'memory_store_deleted' }> {
    await this.remove(actor, id);
    return { id, type: 'memory_store_deleted' };
  }
}
