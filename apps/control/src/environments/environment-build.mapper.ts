import { createHash } from 'node:crypto';
import {
  canonicalPackages,
  type EnvironmentBuild,
  type EnvironmentBuildStatus,
  type EnvironmentConfig,
} from '@agentry/contracts';
import type { EnvironmentBuild as BuildRow } from '@agentry/db';
import type { EnvironmentBuildsRepository } from './environment-builds.repository.js';

/** The digest `agentry_build.packages_digest` shows for a package set; null when there is no package. */
export function packagesDigestOf(packages: Parameters<typeof canonicalPackages>[0]): string | null {
  const canonical = canonicalPackages(packages);
  return canonical === null ? null : createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** `agentry_build` of an environment: its last build while its packages are those built, else pending. */
export async function buildStatusOf(
  builds: EnvironmentBuildsRepository,
  tenantId: string,
  environmentId: string,
  config: EnvironmentConfig,
): Promise<EnvironmentBuild | undefined> {
  if (config.type !== 'cloud') return undefined;
  const digest = packagesDigestOf(config.packages);
  const row = digest === null ? null : await builds.find(tenantId, environmentId);
  return toBuild(digest, row?.packagesDigest === digest ? row : null);
}

export function toBuild(digest: string | null, row: BuildRow | null): EnvironmentBuild {
  if (!row)
    return {
      status: digest === null ? 'ready' : 'pending',
      packages_digest: digest,
      started_at: null,
      finished_at: null,
      error: null,
    };
  return {
    status: row.status as EnvironmentBuildStatus,
    packages_digest: digest,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: (row.error as EnvironmentBuild['error']) ?? null,
  };
}
