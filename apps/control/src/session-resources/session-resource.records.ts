import { posix } from 'node:path';
import {
  AppError,
  ID_PREFIXES,
  newId,
  RESOURCE_MOUNTS,
  type SessionResource,
  type SessionResourceParams,
} from '@agentry/contracts';

/** What a resource's record needs from the things it names (looked up and access-checked by the caller). */
export interface ResourceTargets {
  memoryStore(id: string): { name: string; description: string | null };
}

/** A record as stored in `sessions.resources` (the public shape) and the token to seal apart from it. */
export interface PreparedResource {
  record: SessionResource;
  token?: string;
}

/** Builds the stored record of one resource: an id, timestamps, and CMA's default mount path. */
export function prepareResource(
  params: SessionResourceParams,
  targets: ResourceTargets,
  now: Date,
): PreparedResource {
  const id = newId(ID_PREFIXES.sessionResource);
  const stamps = { created_at: now.toISOString(), updated_at: now.toISOString() };
  switch (params.type) {
    case 'file':
      return {
        record: {
          type: 'file',
          id,
          file_id: params.file_id,
          mount_path: mountPath(params.mount_path, `${RESOURCE_MOUNTS.uploads}/${params.file_id}`),
          ...stamps,
        },
      };
    case 'github_repository': {
      const mount = mountPath(
        params.mount_path,
        `${RESOURCE_MOUNTS.repositories}/${repositoryName(params.url)}`,
      );
      if (!mount.startsWith(`${RESOURCE_MOUNTS.repositories}/`)) {
        throw new AppError(
          'INVALID_REQUEST',
          `mount_path: ${mount} — repositories are cloned into the session workspace, so the path must be below ${RESOURCE_MOUNTS.repositories}/`,
        );
      }
      return {
        record: {
          type: 'github_repository',
          id,
          url: params.url,
          mount_path: mount,
          checkout: params.checkout ?? null,
          ...stamps,
        },
        ...(params.authorization_token ? { token: params.authorization_token } : {}),
      };
    }
    case 'memory_store': {
      const store = targets.memoryStore(params.memory_store_id);
      return {
        record: {
          type: 'memory_store',
          id,
          memory_store_id: params.memory_store_id,
          access: params.access ?? 'read_write',
          description: store.description ?? '',
          instructions: params.instructions ?? null,
          mount_path: `${RESOURCE_MOUNTS.memory}/${storeSlug(store.name)}`,
          name: store.name,
          ...stamps,
        },
      };
    }
  }
}

/** Two resources may not share a mount path (nor may one sit inside another). */
export function assertDistinctMounts(records: SessionResource[]): void {
  const paths = records.map((r) => r.mount_path).filter((p): p is string => Boolean(p));
  for (const [i, a] of paths.entries()) {
    for (const b of paths.slice(i + 1)) {
      if (a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`)) {
        throw new AppError('INVALID_REQUEST', `resources: mount paths ${a} and ${b} overlap`);
      }
    }
  }
}

/** Stored records as returned: ids kept, and never a token (rows written before tokens were sealed had one). */
export function toPublicResource(raw: unknown): SessionResource {
  const { authorization_token: _token, ...rest } = raw as SessionResource & { authorization_token?: string };
  return rest;
}

function mountPath(requested: string | null | undefined, fallback: string): string {
  if (!requested) return fallback;
  const normalized = posix.normalize(requested).replace(/\/+$/, '');
  if (normalized !== requested.replace(/\/+$/, '') || normalized === '' || normalized === '/') {
    throw new AppError(
      'INVALID_REQUEST',
      `mount_path: ${requested} must be a normalized absolute path below /`,
    );
  }
  return normalized;
}

/** `https://host/org/repo.git` → `repo`. */
export function repositoryName(url: string): string {
  const last =
    new URL(url).pathname
      .split('/')
      .filter(Boolean)
      .at(-1)
      ?.replace(/\.git$/, '') ?? '';
  if (!/^[A-Za-z0-9._-]+$/.test(last) || last === '.' || last === '..') {
    throw new AppError(
      'INVALID_REQUEST',
      `url: ${url} does not name a repository (expected …/<owner>/<repo>)`,
    );
  }
  return last;
}

/** `User Preferences` → `user-preferences`. */
export function storeSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'store'
  );
}
