import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Namespace, Tenant, TransactionClient, User, ServiceDatabase } from '@agentry/db';
import { ID_PREFIXES, newId } from '@agentry/contracts';

/**
 * Slug of the tenant the installation seeds on first start (from `AGENTRY_ADMIN_*`). Slugs are unique,
 * so no later tenant can take it; its administrators administer the installation.
 */
export const BOOTSTRAP_TENANT_SLUG = 'default';

export interface SeedAdmin {
  username: string;
  passwordHash: string;
}

export interface NewTenant {
  name: string;
  slug: string;
  admin: SeedAdmin;
}

export interface CreatedTenantRows {
  tenant: Tenant;
  namespace: Namespace;
  admin: User;
}

@Injectable()
export class TenancyRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  /** The tenant's first live namespace: where an administrator with no membership works. */
  defaultNamespace(tenantId: string): Promise<Namespace | null> {
    return this.db.namespace.findFirst({
      where: { tenantId, archivedAt: null },
      orderBy: { createdAt: 'asc' },
    });
  }

  /** A live namespace of the tenant, or null (another tenant's namespace is not found). */
  findNamespace(tenantId: string, namespaceId: string): Promise<Namespace | null> {
    return this.db.namespace.findFirst({ where: { id: namespaceId, tenantId, archivedAt: null } });
  }

  listNamespaces(tenantId: string): Promise<Namespace[]> {
    return this.db.namespace.findMany({
      where: { tenantId, archivedAt: null },
      orderBy: { createdAt: 'asc' },
    });
  }

  /** The namespace, with its creator recorded as a member so a later demotion leaves them in it. */
  createNamespace(
    tenantId: string,
    data: { name: string; slug: string },
    creatorId: string | null,
  ): Promise<Namespace> {
    return this.db.$transaction(async (tx) => {
      const namespace = await tx.namespace.create({
        data: { id: newId(ID_PREFIXES.namespace), tenantId, name: data.name, slug: data.slug },
      });
      if (creatorId)
        await tx.namespaceMember.create({
          data: { tenantId, namespaceId: namespace.id, userId: creatorId, role: 'member' },
        });
      return namespace;
    });
  }

  findTenant(tenantId: string): Promise<Tenant | null> {
    return this.db.tenant.findUnique({ where: { id: tenantId } });
  }

  findTenantBySlug(slug: string): Promise<Tenant | null> {
    return this.db.tenant.findUnique({ where: { slug } });
  }

  listTenants(options: { limit: number; afterId?: string }): Promise<Tenant[]> {
    return this.db.tenant.findMany({
      where: options.afterId ? { id: { gt: options.afterId } } : {},
      orderBy: { id: 'asc' },
      take: options.limit,
    });
  }

  /** A tenant with its default namespace and first administrator (a member of it), all or nothing. */
  createTenant(data: NewTenant): Promise<CreatedTenantRows> {
    return this.db.$transaction(async (tx) => {
      const tenant = await tx.tenant.create({
        data: { id: newId(ID_PREFIXES.tenant), name: data.name, slug: data.slug },
      });
      const namespace = await tx.namespace.create({
        data: { id: newId(ID_PREFIXES.namespace), tenantId: tenant.id, name: 'Default', slug: 'default' },
      });
      const admin = await addAdmin(tx, namespace, data.admin);
      return { tenant, namespace, admin };
    });
  }

  /**
   * Creates the bootstrap tenant, namespace and admin on an empty installation. Replicas may race at
   * boot, so every insert tolerates a concurrent twin.
   */
  async seedDefaultTenant(admin: SeedAdmin): Promise<{ created: boolean }> {
    if (
      await this.db.user.findFirst({
        where: { username: admin.username, tenant: { slug: BOOTSTRAP_TENANT_SLUG } },
      })
    )
      return { created: false };
    try {
      await this.db.$transaction(async (tx) => {
        const tenant = await tx.tenant.upsert({
          where: { slug: BOOTSTRAP_TENANT_SLUG },
          update: {},
          create: { id: newId(ID_PREFIXES.tenant), name: 'Default', slug: BOOTSTRAP_TENANT_SLUG },
        });
        const namespace =
          (await tx.namespace.findFirst({ where: { tenantId: tenant.id }, orderBy: { createdAt: 'asc' } })) ??
          (await tx.namespace.create({
            data: { id: newId(ID_PREFIXES.namespace), tenantId: tenant.id, name: 'Default', slug: 'default' },
          }));
        await addAdmin(tx, namespace, admin);
      });
      return { created: true };
    } catch (error) {
      if ((error as { code?: string }).code === 'P2002') return { created: false };
      throw error;
    }
  }
}

async function addAdmin(tx: TransactionClient, namespace: Namespace, admin: SeedAdmin): Promise<User> {
  const user = await tx.user.create({
    data: {
      id: newId(ID_PREFIXES.user),
      tenantId: namespace.tenantId,
      username: admin.username,
      role: 'admin',
      passwordHash: admin.passwordHash,
    },
  });
  await tx.namespaceMember.create({
    data: { tenantId: namespace.tenantId, namespaceId: namespace.id, userId: user.id, role: 'member' },
  });
  return user;
}
