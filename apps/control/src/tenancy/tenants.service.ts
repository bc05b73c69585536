import { Injectable } from '@nestjs/common';
import {
  AppError,
  type AccessListQuery,
  type Actor,
  type CreatedTenant,
  type CreateTenantRequest,
  type Page,
  type TenantInfo,
} from '@agentry/contracts';
import type { Tenant } from '@agentry/db';
import { AuditLogService } from '../audit/audit-log.service.js';
import { hashPassword } from '../auth/password-hasher.js';
import { assertAdmin } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { toManagedUser } from '../users/user.mapper.js';
import { toNamespaceInfo } from './namespaces.service.js';
import { BOOTSTRAP_TENANT_SLUG, TenancyRepository, type CreatedTenantRows } from './tenancy.repository.js';

/**
 * Installation administration: the administrators of the bootstrap tenant create and list tenants.
 * Tenants share nothing: every other service scopes by the caller's tenant.
 */
@Injectable()
export class TenantsService {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly audit: AuditLogService,
  ) {}

  async create(actor: Actor, body: CreateTenantRequest): Promise<CreatedTenant> {
    await this.assertInstallationAdmin(actor);
    const username = body.admin.username.toLowerCase();
    await this.assertFree(body.slug);
    let rows: CreatedTenantRows;
    try {
      rows = await this.tenancy.createTenant({
        name: body.name,
        slug: body.slug,
        admin: { username, passwordHash: await hashPassword(body.admin.password) },
      });
    } catch (error) {
      // A concurrent twin won the race for the slug. The admin's username is free: the tenant is new.
      if ((error as { code?: string }).code === 'P2002') await this.assertFree(body.slug);
      throw error;
    }
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'tenant',
      resourceId: rows.tenant.id,
      details: { slug: rows.tenant.slug, adminUserId: rows.admin.id },
    });
    return {
      ...toTenantInfo(rows.tenant),
      namespace: toNamespaceInfo(rows.namespace, 'admin'),
      admin: toManagedUser(rows.admin),
    };
  }

  async list(actor: Actor, query: AccessListQuery): Promise<Page<TenantInfo>> {
    await this.assertInstallationAdmin(actor);
    const rows = await this.tenancy.listTenants({
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
    });
    return toIdPage(rows, query.limit, toTenantInfo);
  }

  private async assertInstallationAdmin(actor: Actor): Promise<void> {
    assertAdmin(actor);
    const tenant = await this.tenancy.findTenant(actor.tenantId);
    if (tenant?.slug !== BOOTSTRAP_TENANT_SLUG) {
      throw new AppError(
        'PERMISSION_DENIED',
        'Only administrators of the installation (its bootstrap tenant) may manage tenants',
      );
    }
  }

  private async assertFree(slug: string): Promise<void> {
    if (await this.tenancy.findTenantBySlug(slug))
      throw new AppError('ALREADY_EXISTS', `slug: tenant "${slug}" already exists`);
  }
}

function toTenantInfo(row: Tenant): TenantInfo {
  return { id: row.id, name: row.name, slug: row.slug, createdAt: row.createdAt.toISOString() };
}
