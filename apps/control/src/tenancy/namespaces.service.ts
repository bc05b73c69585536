import { Injectable } from '@nestjs/common';
import {
  AppError,
  type Actor,
  type CreateNamespaceRequest,
  type NamespaceInfo,
  type Role,
} from '@agentry/contracts';
import type { Namespace } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { assertAdmin } from '../common/access.js';
import { AccessChangesPublisher } from '../auth/access-changes.publisher.js';
import { UsersRepository } from '../auth/users.repository.js';
import { NamespacePlacement } from './namespace-placement.js';
import { TenancyRepository } from './tenancy.repository.js';

/**
 * Namespaces (workspaces) of a tenant. Users work in the ones they are members of; tenant
 * administrators in all of them. A request picks one with the `x-agentry-namespace` header.
 */
@Injectable()
export class NamespacesService {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly users: UsersRepository,
    private readonly placement: NamespacePlacement,
    private readonly audit: AuditLogService,
    private readonly accessChanges: AccessChangesPublisher,
  ) {}

  /** Only the caller's own namespaces (an API key: only the one it is bound to; administrators: all). */
  async list(actor: Actor): Promise<{ data: NamespaceInfo[] }> {
    if (actor.apiKeyId || !actor.userId) {
      const namespace = await this.tenancy.findNamespace(actor.tenantId, actor.namespaceId);
      return { data: namespace ? [toNamespaceInfo(namespace, actor.role)] : [] };
    }
    const user = await this.users.findInTenant(actor.tenantId, actor.userId);
    const placements = user ? await this.placement.all(user) : [];
    return { data: placements.map((p) => toNamespaceInfo(p.namespace, p.role)) };
  }

  /** The creator is recorded as a member too, so a later demotion leaves them in what they made. */
  async create(actor: Actor, body: CreateNamespaceRequest): Promise<NamespaceInfo> {
    assertAdmin(actor);
    let row: Namespace;
    try {
      row = await this.tenancy.createNamespace(actor.tenantId, body, actor.userId);
    } catch (error) {
      if ((error as { code?: string }).code === 'P2002')
        throw new AppError('ALREADY_EXISTS', `slug: namespace "${body.slug}" already exists`);
      throw error;
    }
    // The creator's new membership can change where their requests without a namespace header land.
    if (actor.userId) this.accessChanges.changed({ tenantId: actor.tenantId, userId: actor.userId });
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'namespace',
      resourceId: row.id,
      details: { slug: row.slug },
    });
    return toNamespaceInfo(row, 'admin');
  }
}

export function toNamespaceInfo(row: Namespace, role: Role): NamespaceInfo {
  return { id: row.id, name: row.name, slug: row.slug, role, createdAt: row.createdAt.toISOString() };
}
