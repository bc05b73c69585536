import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type AccessListQuery,
  type Actor,
  type ApiKeyInfo,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  type Page,
} from '@agentry/contracts';
import { CLOCK, type Clock } from '@agentry/platform';
import { AuditLogService } from '../audit/audit-log.service.js';
import { AccessChangesPublisher } from '../auth/access-changes.publisher.js';
import { ApiKeysRepository } from '../auth/api-keys.repository.js';
import { newSecretToken } from '../auth/secret-token.js';
import { requireUser } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { toApiKeyInfo } from './api-key.mapper.js';

/** Secrets start with this, so scanners and humans can tell an Agentry key apart. */
const KEY_PREFIX = 'agk';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly audit: AuditLogService,
    private readonly accessChanges: AccessChangesPublisher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A key acts in the caller's current namespace, with at most the caller's own rights. */
  async create(actor: Actor, body: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const userId = requireUser(actor, 'Creating an API key');
    const permissions = [...new Set(body.permissions)].sort();
    if (actor.role === 'viewer' && permissions.includes('write')) {
      throw new AppError('PERMISSION_DENIED', 'permissions: a viewer may only create read keys');
    }
    const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= this.clock.nowMs())
      throw new AppError('INVALID_REQUEST', 'expiresAt: must be in the future');
    const secret = newSecretToken(KEY_PREFIX);
    const row = await this.keys.create({
      id: newId(ID_PREFIXES.apiKey),
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
      userId,
      name: body.name,
      prefix: secret.display,
      keyHash: secret.hash,
      permissions,
      expiresAt,
    });
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'api_key',
      resourceId: row.id,
      details: { permissions },
    });
    return { ...toApiKeyInfo(row), key: secret.token };
  }

  /** Admins see every key of the tenant; others see their own. */
  async list(actor: Actor, query: AccessListQuery): Promise<Page<ApiKeyInfo>> {
    const userId = requireUser(actor, 'Listing API keys');
    const rows = await this.keys.list(actor.tenantId, {
      ...(actor.role === 'admin' ? {} : { userId }),
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
    });
    return toIdPage(rows, query.limit, toApiKeyInfo);
  }

  /** Takes effect on the key's next request: every gateway drops the key from its cache. */
  async revoke(actor: Actor, id: string): Promise<ApiKeyInfo> {
    const userId = requireUser(actor, 'Revoking an API key');
    const row = await this.keys.findInTenant(actor.tenantId, id);
    if (!row || (actor.role !== 'admin' && row.userId !== userId))
      throw new AppError('NOT_FOUND', `API key ${id} not found`);
    if (row.revokedAt) return toApiKeyInfo(row);
    const revoked = await this.keys.revoke(actor.tenantId, id);
    this.accessChanges.changed({ tenantId: actor.tenantId, apiKeyId: id });
    await this.audit.record(actor, { action: 'revoke', resourceType: 'api_key', resourceId: id });
    return toApiKeyInfo(revoked);
  }
}
