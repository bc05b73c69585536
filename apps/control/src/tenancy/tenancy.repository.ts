import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Namespace, PrismaClient } from '@agentry/db';
import { ID_PREFIXES, newId } from '@agentry/contracts';

export interface SeedAdmin {
  username: string;
  passwordHash: string;
}

@Injectable()
export class TenancyRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  /** The namespace a user works in when the request names none. */
  defaultNamespace(tenantId: string): Promise<Namespace | null> {
    return this.db.namespace.findFirst({ where: { tenantId, archivedAt: null }, orderBy: { createdAt: 'asc' } });
  }

  /** A live namespace of the tenant, or null (another tenant's namespace is not found). */
  findNamespace(tenantId: string, namespaceId: string): Promise<Namespace | null> {
    return this.db.namespace.findFirst({ where: { id: namespaceId, tenantId, archivedAt: null } });
  }

  listNamespaces(tenantId: string): Promise<Namespace[]> {
    return this.db.namespace.findMany({ where: { tenantId, archivedAt: null }, orderBy: { createdAt: 'asc' } });
  }

  createNamespace(tenantId: string, data: { name: string; slug: string }): Promise<Namespace> {
    return this.db.namespace.create({ data: { id: newId(ID_PREFIXES.namespace), tenantId, name: data.name, slug: data.slug } });
  }

  /**
   * Creates the default tenant, namespace and admin on an empty installation. Replicas may race at
   * boot, so every insert tolerates a concurrent twin.
   */
  async seedDefaultTenant(admin: SeedAdmin): Promise<{ created: boolean }> {
    if (await this.db.user.findUnique({ where: { username: admin.username } })) return { created: false };
    try {
      await this.db.$transaction(async (tx) => {
        const tenant = await tx.tenant.upsert({
          where: { slug: 'default' },
          update: {},
          create: { id: newId(ID_PREFIXES.tenant), name: 'Default', slug: 'default' },
        });
        const namespace = await tx.namespace.findFirst({ where: { tenantId: tenant.id } });
        if (!namespace) {
          await tx.namespace.create({ data: { id: newId(ID_PREFIXES.namespace), tenantId: tenant.id, name: 'Default', slug: 'default' } });
        }
        await tx.user.create({
          data: { id: newId(ID_PREFIXES.user), tenantId: tenant.id, username: admin.username, role: 'admin', passwordHash: admin.passwordHash },
        });
      });
      return { created: true };
    } catch (error) {
      if ((error as { code?: string }).code === 'P2002') return { created: false };
      throw error;
    }
  }
}
