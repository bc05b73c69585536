import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { MemoryStore, ServiceDatabase } from '@agentry/db';
import type { Actor, Metadata } from '@agentry/contracts';
import { archivablePage, inNamespace, type ArchivableListOptions } from '../common/namespaced-rows.js';

@Injectable()
export class MemoryStoresRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  create(
    actor: Actor,
    id: string,
    data: { name: string; description: string | null; metadata: Metadata },
  ): Promise<MemoryStore> {
    return this.db.memoryStore.create({
      data: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, ...data },
    });
  }

  find(actor: Actor, id: string): Promise<MemoryStore | null> {
    return this.db.memoryStore.findFirst({
      where: inNamespace(actor, id),
    });
  }

  list(actor: Actor, options: ArchivableListOptions): Promise<MemoryStore[]> {
    return this.db.memoryStore.findMany(archivablePage(actor, options));
  }

  update(
    actor: Actor,
    id: string,
    data: { name?: string; description?: string | null; metadata?: Metadata; archivedAt?: Date },
  ): Promise<MemoryStore> {
    return this.db.memoryStore.update({
      where: inNamespace(actor, id),
      data,
    });
  }

  /** Deletes the store with every memory and version in it (cascade). */
  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.memoryStore.delete({
      where: inNamespace(actor, id),
    });
  }
}
