import type { ApiKeyInfo, ApiKeyPermission } from '@agentry/contracts';
import type { ApiKey } from '@agentry/db';

/** Never carries the secret or its hash. */
export function toApiKeyInfo(row: ApiKey): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    namespaceId: row.namespaceId,
    userId: row.userId,
    permissions: row.permissions as ApiKeyPermission[],
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
