import { Injectable } from '@nestjs/common';
import {
  AppError,
  type AccessListQuery,
  type Actor,
  type AddNamespaceMemberRequest,
  type NamespaceMember,
  type Page,
  type RemovedNamespaceMember,
  type UpdateNamespaceMemberRequest,
} from '@agentry/contracts';
import type { Namespace } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { AccessChangesPublisher } from '../auth/access-changes.publisher.js';
import { UsersRepository } from '../auth/users.repository.js';
import { assertAdmin } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { MembershipsRepository, type MemberWithUser } from './memberships.repository.js';
import { effectiveRole } from './namespace-placement.js';
import { TenancyRepository } from './tenancy.repository.js';

/** Tenant administrators decide who works in which namespace, and as what. Every change is audited. */
@Injectable()
export class NamespaceMembersService {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly memberships: MembershipsRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditLogService,
    private readonly accessChanges: AccessChangesPublisher,
  ) {}

  async list(actor: Actor, namespaceId: string, query: AccessListQuery): Promise<Page<NamespaceMember>> {
    await this.requireNamespace(actor, namespaceId);
    const rows = await this.memberships.listOfNamespace(actor.tenantId, namespaceId, {
      limit: query.limit + 1,
      afterUserId: decodeIdCursor(query.page),
    });
    return toIdPage(
      rows.map((row) => ({ ...row, id: row.userId })),
      query.limit,
      toNamespaceMember,
    );
  }

  async add(actor: Actor, namespaceId: string, body: AddNamespaceMemberRequest): Promise<NamespaceMember> {
    const namespace = await this.requireNamespace(actor, namespaceId);
    if (!(await this.users.findInTenant(actor.tenantId, body.userId)))
      throw new AppError('NOT_FOUND', `userId: user ${body.userId} not found`);
    if (await this.memberships.find(actor.tenantId, namespaceId, body.userId)) {
      throw new AppError(
        'ALREADY_EXISTS',
        `User ${body.userId} is already a member of namespace ${namespace.slug}; PATCH the member to change the role`,
      );
    }
    let row: MemberWithUser;
    try {
      row = await this.memberships.create({
        tenantId: actor.tenantId,
        namespaceId,
        userId: body.userId,
        role: body.role,
      });
    } catch (error) {
      if ((error as { code?: string }).code === 'P2002')
        throw new AppError(
          'ALREADY_EXISTS',
          `User ${body.userId} is already a member of namespace ${namespace.slug}`,
        );
      throw error;
    }
    // A new first membership changes where the user's requests without a namespace header land.
    this.accessChanges.changed({ tenantId: actor.tenantId, userId: body.userId });
    await this.audit.record(actor, {
      action: 'add_member',
      resourceType: 'namespace',
      resourceId: namespaceId,
      details: { userId: body.userId, role: body.role },
    });
    return toNamespaceMember(row);
  }

  async update(
    actor: Actor,
    namespaceId: string,
    userId: string,
    body: UpdateNamespaceMemberRequest,
  ): Promise<NamespaceMember> {
    const namespace = await this.requireNamespace(actor, namespaceId);
    const row = await this.memberships.updateRole(actor.tenantId, namespaceId, userId, body.role);
    if (!row) throw notAMember(userId, namespace);
    this.accessChanges.changed({ tenantId: actor.tenantId, userId });
    await this.audit.record(actor, {
      action: 'update_member',
      resourceType: 'namespace',
      resourceId: namespaceId,
      details: { userId, role: body.role },
    });
    return toNamespaceMember(row);
  }

  /** The user's access and their API keys for the namespace end with the next request. */
  async remove(actor: Actor, namespaceId: string, userId: string): Promise<RemovedNamespaceMember> {
    const namespace = await this.requireNamespace(actor, namespaceId);
    const removed = await this.memberships.remove(actor.tenantId, namespaceId, userId);
    if (!removed) throw notAMember(userId, namespace);
    this.accessChanges.changed({ tenantId: actor.tenantId, userId });
    await this.audit.record(actor, {
      action: 'remove_member',
      resourceType: 'namespace',
      resourceId: namespaceId,
      details: { userId, ...removed },
    });
    return { removed: true, revokedApiKeys: removed.revokedApiKeys };
  }

  private async requireNamespace(actor: Actor, namespaceId: string): Promise<Namespace> {
    assertAdmin(actor);
    const namespace = await this.tenancy.findNamespace(actor.tenantId, namespaceId);
    if (!namespace) throw new AppError('NOT_FOUND', `Namespace ${namespaceId} not found`);
    return namespace;
  }
}

function notAMember(userId: string, namespace: Namespace): AppError {
  return new AppError('NOT_FOUND', `User ${userId} is not a member of namespace ${namespace.slug}`);
}

function toNamespaceMember(row: MemberWithUser): NamespaceMember {
  return {
    namespaceId: row.namespaceId,
    userId: row.userId,
    username: row.user.username,
    role: row.role,
    effectiveRole: effectiveRole(row.user.role, row.role),
    createdAt: row.createdAt.toISOString(),
  };
}
