import { Injectable } from '@nestjs/common';
import { AppError, type Actor, type CreateNamespaceRequest, type NamespaceInfo } from '@agentry/contracts';
import type { Namespace } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { assertAdmin } from '../common/access.js';
import { TenancyRepository } from './tenancy.repository.js';

/**
 * Namespaces (workspaces) of a tenant. Every user of the tenant is a member of each of them; a request
 * picks one with the `x-agentry-namespace` header.
 */
@Injectable()
export class NamespacesService {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly audit: AuditLogService,
  ) {}

  async list(actor: Actor): Promise<{ data: NamespaceInfo[] }> {
    const rows = await this.tenancy.listNamespaces(actor.tenantId);
    // An API key is bound to one namespace and sees only that one.
    return { data: rows.filter((ns) => !actor.apiKeyId || ns.id === actor.namespaceId).map(toNamespaceInfo) };
  }

  async create(actor: Actor, body: CreateNamespaceRequest): Promise<NamespaceInfo> {
    assertAdmin(actor);
    let row: Namespace;
    try {
      row = await this.tenancy.createNamespace(actor.tenantId, body);
    } catch (error) {
      if ((error as { code?: string }).code === 'P2002') throw new AppError('ALREADY_EXISTS', `slug: namespace "${body.slug}" already exists`);
      throw error;
    }
    await this.audit.record(actor, { action: 'create', resourceType: 'namespace', resourceId: row.id, details: { slug: row.slug } });
    return toNamespaceInfo(row);
  }
}

function toNamespaceInfo(row: Namespace): NamespaceInfo {
  return { id: row.id, name: row.name, slug: row.slug, createdAt: row.createdAt.toISOString() };
}
