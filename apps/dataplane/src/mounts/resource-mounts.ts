import { posix } from 'node:path';
import {
  SESSION_MOUNT_PATHS,
  SessionMountSchema,
  type RuntimeSessionResource,
  type SessionMount,
} from '@agentry/contracts';

/** A session's `resources[]` as mounts under /mnt, and what the system prompt says of them. */
export interface ResourceMounts {
  mounts: SessionMount[];
  /** One paragraph per memory store: where it is, whether writable, and the resource's instructions. */
  promptNotes: string[];
  /** The memory stores the session holds, with the access it was given (what the memory tools work on). */
  memoryStores: SessionMemoryStore[];
  /** Resources that cannot be mounted (a file whose mount_path is outside /mnt), for the log. */
  skipped: Array<{ id: string | undefined; mountPath: string; why: string }>;
}

export interface SessionMemoryStore {
  storeId: string;
  name: string;
  access: 'read_only' | 'read_write';
}

/**
 * Files are shown read-only at their `mount_path` (files in one directory share one mount); memory stores
 * at theirs (`/mnt/memory/<slug>`), writable for `read_write` where the Hands write back. Repositories are cloned by the Hands into
 * the workspace and are not mounts.
 */
export function resourceMounts(
  resources: readonly RuntimeSessionResource[],
  options: { writable: boolean } = { writable: true },
): ResourceMounts {
  const byDir = new Map<string, Array<{ name: string; fileId: string }>>();
  const mounts: SessionMount[] = [];
  const promptNotes: string[] = [];
  const skipped: ResourceMounts['skipped'] = [];
  const memoryStores: SessionMemoryStore[] = [];
  for (const { resource } of resources) {
    if (resource.type === 'file') {
      const dir = posix.dirname(resource.mount_path);
      const candidate = {
        path: dir,
        source: {
          type: 'files' as const,
          files: [{ name: posix.basename(resource.mount_path), fileId: resource.file_id }],
        },
      };
      if (!SessionMountSchema.safeParse(candidate).success) {
        skipped.push({
          id: resource.id,
          mountPath: resource.mount_path,
          why: 'a file is mounted only below /mnt',
        });
        continue;
      }
      byDir.set(dir, [...(byDir.get(dir) ?? []), ...candidate.source.files]);
    } else if (resource.type === 'memory_store') {
      memoryStores.push({
        storeId: resource.memory_store_id,
        name: resource.name ?? resource.memory_store_id,
        access: resource.access ?? 'read_write',
      });
      const path = resource.mount_path ?? `${SESSION_MOUNT_PATHS.memory}/${resource.memory_store_id}`;
      // Where the Hands cannot write back (`remote`), a read_write store is shown read-only, and the prompt says so.
      const writable = options.writable && (resource.access ?? 'read_write') === 'read_write';
      const mount = {
        path,
        source: { type: 'memory_store' as const, storeId: resource.memory_store_id, writable },
      };
      if (!SessionMountSchema.safeParse(mount).success) {
        skipped.push({ id: resource.id, mountPath: path, why: 'not a path below /mnt' });
        continue;
      }
      mounts.push(mount);
      promptNotes.push(
        memoryStoreNote(
          resource.name ?? resource.memory_store_id,
          path,
          writable,
          resource.instructions ?? null,
        ),
      );
    }
  }
  for (const [dir, files] of byDir) mounts.push({ path: dir, source: { type: 'files', files } });
  return { mounts, promptNotes, memoryStores, skipped };
}

function memoryStoreNote(name: string, path: string, writable: boolean, instructions: string | null): string {
  const access = writable
    ? 'read-write: each file is a memory; create, edit or delete files there with your file tools or bash to change the store'
    : 'read-only: read its files, but they cannot be changed';
  return [
    `The memory store "${name}" is mounted at ${path} (${access}).`,
    ...(instructions ? [`Instructions for it: ${instructions}`] : []),
  ].join('\n');
}
