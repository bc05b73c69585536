import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { Namespace, NamespaceMember, NamespaceRole, User, ServiceDatabase } from '@agentry/db';

export type MemberWithUser = NamespaceMember & { user: User };
export type MembershipWithNamespace = NamespaceMember & { namespace: Namespace };

/** Rows of `namespace_members`: who works in which namespace, with which role. */
@Injectable()
export class MembershipsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The user's membership of a live namespace of their tenant, or null. */
  find(tenantId: string, namespaceId: string, userId: string): Promise<MembershipWithNamespace | null> {
    return this.db.namespaceMember.findFirst({
      where: { tenantId, namespaceId, userId, namespace: { archivedAt: null } },
      include: { namespace: true },
    });
  }

  /** The user's first membership (the namespace they work in when a request names none). */
  first(tenantId: string, userId: string): Promise<MembershipWithNamespace | null> {
    return this.db.namespaceMember.findFirst({
      where: { tenantId, userId, namespace: { archivedAt: null } },
      include: { namespace: true },
      orderBy: [{ createdAt: 'asc' }, { namespaceId: 'asc' }],
    });
  }

  /** Every live namespace the user belongs to, oldest membership first. */
  listOfUser(tenantId: string, userId: string): Promise<MembershipWithNamespace[]> {
    return this.db.namespaceMember.findMany({
      where: { tenantId, userId, namespace: { archivedAt: null } },
      include: { namespace: true },
      orderBy: [{ createdAt: 'asc' }, { namespaceId: 'asc' }],
    });
  }

  /** Members of one namespace, by user id, after `afterUserId`. */
  listOfNamespace(
    tenantId: string,
    namespaceId: string,
    options: { limit: number; afterUserId?: string },
  ): Promise<MemberWithUser[]> {
    return this.db.namespaceMember.findMany({
      where: {
        tenantId,
        namespaceId,
        ...(options.afterUserId ? { userId: { gt: options.afterUserId } } : {}),
      },
      include: { user: true },
      orderBy: { userId: 'asc' },
      take: options.limit,
    });
  }

  create(data: {
    tenantId: string;
    namespaceId: string;
    userId: string;
    role: NamespaceRole;
  }): Promise<MemberWithUser> {
    return this.db.namespaceMember.create({ data, include: { user: true } });
  }

  /** Null when the user is not a member. */
  async updateRole(
    tenantId: string,
    namespaceId: string,
    userId: string,
    role: NamespaceRole,
  ): Promise<MemberWithUser | null> {
    const { count } = await this.db.namespaceMember.updateMany({
      where: { tenantId, namespaceId, userId },
      data: { role },
    });
    if (count === 0) return null;
    return this.db.namespaceMember.findUnique({
      where: { namespaceId_userId: { namespaceId, userId } },
      include: { user: true },
    });
  }

  /**
   * Removes the membership and revokes the user's keys bound to the namespace in one transaction, so
   * a key never outlives its owner's access. Null when the user was not a member.
   */
  async remove(
    tenantId: string,
    namespaceId: string,
    userId: string,
  ): Promise<{ revokedApiKeys: number } | null> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.namespaceMember.deleteMany({ where: { tenantId, namespaceId, userId } });
      if (count === 0) return null;
      const revoked = await tx.apiKey.updateMany({
        where: { tenantId, namespaceId, userId, revokedAt: null },
        data: { revokedAt: this.clock.now() },
      });
      return { revokedApiKeys: revoked.count };
    });
  }
}
