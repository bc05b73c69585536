import type {
  Environment as EnvironmentRow,
  EnvironmentKey as EnvironmentKeyRow,
  EnvironmentType,
} from '@agentry/db';
import type { Environment, EnvironmentConfig, EnvironmentKey } from '@agentry/contracts';

/** CMA's `cloud` runs in the platform's sandbox; the other config types name their storage type directly. */
export function storageTypeOf(config: EnvironmentConfig): EnvironmentType {
  return config.type === 'cloud' ? 'sandbox' : config.type;
}

export function toEnvironmentDto(row: EnvironmentRow): Environment {
  return {
    type: 'environment',
    id: row.id,
    name: row.name,
    description: row.description,
    config: row.config as EnvironmentConfig,
    metadata: row.metadata as Record<string, string>,
    scope: 'organization',
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

export function toEnvironmentKeyDto(row: EnvironmentKeyRow, secret?: string): EnvironmentKey {
  return {
    type: 'environment_key',
    id: row.id,
    environment_id: row.environmentId,
    display: row.prefix,
    ...(secret ? { key: secret } : {}),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}
