import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { MemoryStore, PrismaClient } from '@agentry/db';
import type { Actor, Metadata } from '@agentry/contracts';

export interface StoreListOptions {
  limit: number;
  afterId?: string;
  order: 'asc' | 'desc';
  includeArchived: boolean;
}

@Injectable()
export class MemoryStoresRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

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
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  list(actor: Actor, options: StoreListOptions): Promise<MemoryStore[]> {
    return this.db.memoryStore.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(options.includeArchived ? {} : { archivedAt: null }),
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }

  update(
    actor: Actor,
    id: string,
    data: { name?: string; description?: string | null; metadata?: Metadata; archivedAt?: Date },
  ): Promise<MemoryStore> {
    return this.db.memoryStore.update({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data,
    });
  }

  /** Deletes the store with every memory and version in it (cascade). */
  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.memoryStore.delete({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }
}
