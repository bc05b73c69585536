import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { NamespaceRole, Prisma, PrismaClient, User } from '@agentry/db';

export type UserChanges = Pick<Prisma.UserUpdateInput, 'role' | 'disabledAt' | 'displayName' | 'passwordHash'>;

@Injectable()
export class UsersRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  findByUsername(username: string): Promise<User | null> {
    return this.db.user.findUnique({ where: { username: username.toLowerCase() } });
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
  createInNamespace(data: Prisma.UserUncheckedCreateInput, namespaceId: string, role: NamespaceRole): Promise<User> {
    return this.db.$transaction(async (tx) => {
      const user = await tx.user.create({ data });
      await tx.namespaceMember.create({ data: { tenantId: user.tenantId, namespaceId, userId: user.id, role } });
      return user;
    });
  }

  update(tenantId: string, id: string, changes: UserChanges): Promise<User> {
    return this.db.user.update({ where: { id, tenantId }, data: changes });
  }
}
