import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Vault, ServiceDatabase } from '@agentry/db';
import type { Actor, Metadata } from '@agentry/contracts';
import { archivablePage, inNamespace, type ArchivableListOptions } from '../common/namespaced-rows.js';

@Injectable()
export class VaultsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

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
      where: inNamespace(actor, id),
    });
  }

  list(actor: Actor, options: ArchivableListOptions): Promise<Vault[]> {
    return this.db.vault.findMany(archivablePage(actor, options));
  }

  update(
    actor: Actor,
    id: string,
    data: { displayName?: string; metadata?: Metadata; archivedAt?: Date },
  ): Promise<Vault> {
    return this.db.vault.update({
      where: inNamespace(actor, id),
      data,
    });
  }

  /** Deletes the vault and, by cascade, its credentials. */
  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.vault.delete({ where: inNamespace(actor, id) });
  }
}
