import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Prisma, PrismaClient, User } from '@agentry/db';

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

  create(data: Prisma.UserUncheckedCreateInput): Promise<User> {
    return this.db.user.create({ data });
  }

  update(tenantId: string, id: string, changes: UserChanges): Promise<User> {
    return this.db.user.update({ where: { id, tenantId }, data: changes });
  }
}
