import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { NamespaceRole, Prisma, User, ServiceDatabase } from '@agentry/db';

/** Bounds the password checks of one login without a tenant (one per tenant using the name). */
const MAX_LOGIN_CANDIDATES = 20;

export type UserChanges = Pick<
  Prisma.UserUpdateInput,
  'role' | 'disabledAt' | 'displayName' | 'passwordHash'
>;

@Injectable()
export class UsersRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  /** The tenant's user of that name: usernames are unique within a tenant only. */
  findByUsername(tenantId: string, username: string): Promise<User | null> {
    return this.db.user.findUnique({
      where: { tenantId_username: { tenantId, username: username.toLowerCase() } },
    });
  }

  /**
   * The users of that name in every tenant, or in the one tenant named by its slug or id. Login uses
   * this: a username alone may match users of several tenants.
   */
  findForLogin(username: string, tenant?: string): Promise<User[]> {
    return this.db.user.findMany({
      where: {
        username: username.toLowerCase(),
        ...(tenant ? { tenant: { OR: [{ slug: tenant }, { id: tenant }] } } : {}),
      },
      orderBy: { id: 'asc' },
      take: MAX_LOGIN_CANDIDATES,
    });
  }

  findById(id: string): Promise<User | null> {
    return this.db.user.findUnique({ where: { id } });
  }

  /** A user of the tenant, or null: another tenant's user is simply not found. */
  findInTenant(tenantId: string, id: string): Promise<User | null> {
    return this.db.user.findFirst({ where: { id, tenantId } });
  }

  listInTenant(tenantId: string, options: { limit: number; afterId?: string }): Promise<User[]> {
    return this.db.user.findMany({
      where: { tenantId, ...(options.afterId ? { id: { gt: options.afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: options.limit,
    });
  }

  /** The user and their first namespace membership, together or not at all. */
  createInNamespace(
    data: Prisma.UserUncheckedCreateInput,
    namespaceId: string,
    role: NamespaceRole,
  ): Promise<User> {
    return this.db.$transaction(async (tx) => {
      const user = await tx.user.create({ data });
      await tx.namespaceMember.create({
        data: { tenantId: user.tenantId, namespaceId, userId: user.id, role },
      });
      return user;
    });
  }

  update(tenantId: string, id: string, changes: UserChanges): Promise<User> {
    return this.db.user.update({ where: { id, tenantId }, data: changes });
  }
}
