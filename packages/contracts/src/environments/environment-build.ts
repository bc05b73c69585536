import { z } from 'zod';
import { IsoDateTimeSchema } from '../common/common.js';

const PACKAGE_MANAGERS = ['apt', 'cargo', 'gem', 'go', 'npm', 'pip'] as const;
type PackageManager = (typeof PACKAGE_MANAGERS)[number];

export const EnvironmentBuildStatusSchema = z.enum(['pending', 'building', 'ready', 'failed']);
export type EnvironmentBuildStatus = z.infer<typeof EnvironmentBuildStatusSchema>;

/** The package that made a build fail, when the build got as far as naming one. */
export const FailedPackageSchema = z.object({ manager: z.enum(PACKAGE_MANAGERS), name: z.string() });

/**
 * Agentry extension on a `cloud` environment (`agentry_build`): the state of the image its sessions run
 * on, the base userland plus its `packages`. `pending` until a session's first tool call needs it (or
 * after `packages` changed), `building`, then `ready` or `failed` with the reason; the build's output is
 * at `GET /v1/environments/{id}/build/log`.
 */
export const EnvironmentBuildSchema = z.object({
  status: EnvironmentBuildStatusSchema,
  /** Names the package set the status is about (a digest of `canonicalPackages`); null for a config without packages. */
  packages_digest: z.string().nullable(),
  started_at: IsoDateTimeSchema.nullable(),
  finished_at: IsoDateTimeSchema.nullable(),
  error: z.object({ message: z.string(), package: FailedPackageSchema.nullable() }).nullable(),
});
export type EnvironmentBuild = z.infer<typeof EnvironmentBuildSchema>;

export const EnvironmentBuildLogSchema = z.object({
  type: z.literal('environment_build_log'),
  environment_id: z.string(),
  status: EnvironmentBuildStatusSchema,
  packages_digest: z.string().nullable(),
  /** The build's output (its last 256 KiB), empty before any build. */
  log: z.string(),
});
export type EnvironmentBuildLog = z.infer<typeof EnvironmentBuildLogSchema>;

/** The most of a build's log that is kept. */
export const BUILD_LOG_MAX_BYTES = 256 * 1024;

/**
 * A package set in one canonical form (lists sorted, repeats dropped, empty lists left out; null when there is
 * no package at all): the same set written any way is the same text, so the status a worker reports for a
 * set is the status of every environment asking for that set. Its digest is `packages_digest`.
 */
export function canonicalPackages(
  packages: { readonly [manager in PackageManager]?: readonly string[] | null } | null | undefined,
): string | null {
  const lists = PACKAGE_MANAGERS.flatMap((manager) => {
    const list = packages?.[manager];
    return list && list.length > 0 ? [[manager, [...new Set(list.map((s) => s.trim()))].sort()]] : [];
  });
  return lists.length === 0 ? null : JSON.stringify(lists);
}

export const PackageListsSchema = z.partialRecord(z.enum(PACKAGE_MANAGERS), z.array(z.string()));
