import type { Environment as EnvironmentRow, EnvironmentType } from '@agentry/db';
import type { Environment, EnvironmentConfig } from '@agentry/contracts';

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
