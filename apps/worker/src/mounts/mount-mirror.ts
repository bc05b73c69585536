import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isWritableMount, type SessionMount, type SessionMountSource } from '@agentry/contracts';
import {
  joinWorkspacePath,
  LocalWorkspaceFs,
  mountPrefix,
  mountsChangeMark,
  openMountSource,
  type MountSourceDeps,
} from '@agentry/workspace';

/** A materialised file: which source version it was copied from. */
type Copied = Map<string, string>;

/** A change the session's tools made below a writable mount: the file's new content, or null when removed. */
export interface MountChange {
  /** Relative to the mount ("notes/a.md"). */
  path: string;
  content: string | null;
  /** The sha256 of what was copied there (null: the session created the file). */
  base: string | null;
}

/**
 * One session's mounts laid out in a host directory (bound read-only at /mnt in its sandbox): each
 * `sync` makes the directory exactly what the mounts' sources hold now, copying only files whose
 * version changed since the last sync and removing what the sources no longer have. Below a writable
 * mount the session's own changes are found with `changesOf` and written back by the caller.
 */
export class MountMirror {
  private copied: Copied | null = null;
  /** What `mountsChangeMark` said when the last sync completed; the same mark again means nothing to copy. */
  private syncedMark: string | null = null;
  private readonly local: LocalWorkspaceFs;

  constructor(private readonly hostDir: string) {
    this.local = new LocalWorkspaceFs({ root: hostDir });
  }

  /** The mirrored tree, for the session's file tools (read-only there). */
  get fs(): LocalWorkspaceFs {
    return this.local;
  }

  async sync(mounts: readonly SessionMount[], deps: MountSourceDeps): Promise<void> {
    // Taken before the sources are read: a write that lands during the copy moves the next mark.
    const mark = await mountsChangeMark(mounts, deps);
    if (this.copied !== null && mark !== null && mark === this.syncedMark) return;
    this.syncedMark = null;
    await this.copy(mounts, deps);
    this.syncedMark = mark;
  }

  private async copy(mounts: readonly SessionMount[], deps: MountSourceDeps): Promise<void> {
    if (this.copied === null) {
      // First sync on this worker: whatever an earlier holder left is not trusted. Emptied, not replaced:
      // the session's kept sandbox may have bound the directory itself already.
      await mkdir(this.hostDir, { recursive: true, mode: 0o711 });
      for (const entry of await readdir(this.hostDir))
        await rm(join(this.hostDir, entry), { recursive: true, force: true });
      this.copied = new Map();
    }
    const wanted: Copied = new Map();
    // Every call syncs: the sources are listed at once (a query each), not one after the other.
    const listed = await Promise.all(
      mounts.map(async (mount) => {
        const source = await openMountSource(mount.source, deps);
        return { mount, source, files: await source.list('', { recursive: true }) };
      }),
    );
    for (const { mount, source, files } of listed) {
      const prefix = mountPrefix(mount);
      await this.local.mkdir(prefix);
      const tag = sourceTag(mount.source);
      for (const file of files) {
        if (file.kind !== 'file') continue;
        const path = joinWorkspacePath(prefix, file.path);
        // Files and memories are read whole anyway; their version is their content.
        const bytes = tag === null ? await source.readBytes(file.path) : null;
        const version = bytes ? contentVersion(bytes) : `${tag}:${file.version}`;
        wanted.set(path, version);
        if (this.copied.get(path) === version) continue;
        await this.local.writeBytes(path, bytes ?? (await source.readBytes(file.path)), {
          createParents: true,
        });
        this.copied.set(path, version);
      }
    }
    for (const path of [...this.copied.keys()]) {
      if (wanted.has(path)) continue;
      await this.local.delete(path).catch(() => undefined);
      this.copied.delete(path);
    }
  }

  /** What differs below a writable mount from what was last copied there (or written back). */
  async changesOf(mount: SessionMount): Promise<MountChange[]> {
    if (!isWritableMount(mount) || this.copied === null) return [];
    const prefix = mountPrefix(mount);
    const changes: MountChange[] = [];
    const present = new Set<string>();
    for (const file of await this.local.list(prefix, { recursive: true }).catch(() => [])) {
      if (file.kind !== 'file') continue;
      const path = file.path; // relative to the mirror's root, like the keys of `copied`
      present.add(path);
      const bytes = await this.local.readBytes(path);
      const copied = this.copied.get(path);
      if (copied !== contentVersion(bytes))
        changes.push({
          path: path.slice(prefix.length + 1),
          content: Buffer.from(bytes).toString('utf8'),
          base: shaOf(copied),
        });
    }
    for (const path of this.copied.keys()) {
      if (path.startsWith(`${prefix}/`) && !present.has(path))
        changes.push({
          path: path.slice(prefix.length + 1),
          content: null,
          base: shaOf(this.copied.get(path)),
        });
    }
    return changes;
  }

  /** Records changes as written back, so they are neither sent again nor overwritten by the next sync. */
  settled(mount: SessionMount, changes: readonly MountChange[]): void {
    const prefix = mountPrefix(mount);
    for (const change of changes) {
      const path = joinWorkspacePath(prefix, change.path);
      if (change.content === null) this.copied?.delete(path);
      else this.copied?.set(path, contentVersion(Buffer.from(change.content, 'utf8')));
    }
  }
}

/** How a source's file versions are told apart: by a stable tag and the file's version, or (null) by content. */
function sourceTag(source: SessionMountSource): string | null {
  if (source.type === 'skill_version') return `${source.skillId}@${source.version}`;
  if (source.type === 'workspace') return source.root;
  return null;
}

const SHA_PREFIX = 'sha256:';

function contentVersion(bytes: Uint8Array): string {
  return `${SHA_PREFIX}${createHash('sha256').update(bytes).digest('hex')}`;
}

function shaOf(version: string | undefined): string | null {
  return version?.startsWith(SHA_PREFIX) ? version.slice(SHA_PREFIX.length) : null;
}
