import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { PrismaClient, Vault } from '@agentry/db';
import type { Actor, Metadata } from '@agentry/contracts';

export interface ListOptions {
  limit: number;
  afterId?: string;
  order: 'asc' | 'desc';
  includeArchived: boolean;
}

@Injectable()
export class VaultsRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  create(actor: Actor, id: string, data: { displayName: string; metadata: Metadata }): Promise<Vault> {
    return this.db.vault.create({
      data: {
        id,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        displayName: data.displayName,
        metadata: data.metadata,
      },
    });
  }

  find(actor: Actor, id: string): Promise<Vault | null> {
    return this.db.vault.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  list(actor: Actor, options: ListOptions): Promise<Vault[]> {
    return this.db.vault.findMany({
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
    data: { displayName?: string; metadata?: Metadata; archivedAt?: Date },
  ): Promise<Vault> {
    return this.db.vault.update({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data,
    });
  }

  /** Deletes the vault and, by cascade, its credentials. */
  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.vault.delete({ where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId } });
  }
}
