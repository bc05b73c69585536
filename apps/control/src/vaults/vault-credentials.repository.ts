import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Prisma, VaultCredential, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';
import type { SealedSecret } from './secret-cipher.js';
import type { ArchivableListOptions } from '../common/namespaced-rows.js';

export interface CredentialData extends SealedSecret {
  type: string;
  displayName: string | null;
  target: Prisma.InputJsonValue;
  metadata: Prisma.InputJsonValue;
}

/** Credentials are reached through their vault, which the caller has already found in the actor's namespace. */
@Injectable()
export class VaultCredentialsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  create(actor: Actor, vaultId: string, id: string, data: CredentialData): Promise<VaultCredential> {
    return this.db.vaultCredential.create({ data: { id, tenantId: actor.tenantId, vaultId, ...data } });
  }

  find(actor: Actor, vaultId: string, id: string): Promise<VaultCredential | null> {
    return this.db.vaultCredential.findFirst({ where: { id, vaultId, tenantId: actor.tenantId } });
  }

  list(actor: Actor, vaultId: string, options: ArchivableListOptions): Promise<VaultCredential[]> {
    return this.db.vaultCredential.findMany({
      where: {
        tenantId: actor.tenantId,
        vaultId,
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
    vaultId: string,
    id: string,
    data: Partial<CredentialData> & { archivedAt?: Date },
  ): Promise<VaultCredential> {
    return this.db.vaultCredential.update({ where: { id, vaultId, tenantId: actor.tenantId }, data });
  }

  async delete(actor: Actor, vaultId: string, id: string): Promise<void> {
    await this.db.vaultCredential.delete({ where: { id, vaultId, tenantId: actor.tenantId } });
  }
}
