import { rm } from 'node:fs/promises';
import type { SessionMount } from '@agentry/contracts';
import { joinWorkspacePath, LocalWorkspaceFs, mountPrefix, openMountSource, type MountSourceDeps } from '@agentry/workspace';

/** A materialised file: which source version it was copied from. */
type Copied = Map<string, string>;

/**
 * One session's mounts laid out in a host directory (bound read-only at /mnt in its sandbox): each
 * `sync` makes the directory exactly what the mounts' sources hold now, copying only files whose
 * version changed since the last sync and removing what the sources no longer have.
 */
export class MountMirror {
  private copied: Copied | null = null;
  private readonly local: LocalWorkspaceFs;

  constructor(private readonly hostDir: string) {
    this.local = new LocalWorkspaceFs({ root: hostDir });
  }

  /** The mirrored tree, for the session's file tools (read-only there). */
  get fs(): LocalWorkspaceFs {
    return this.local;
  }

  async sync(mounts: readonly SessionMount[], deps: MountSourceDeps): Promise<void> {
    if (this.copied === null) {
      // First sync on this worker: whatever an earlier holder left is not trusted.
      await rm(this.hostDir, { recursive: true, force: true });
      this.copied = new Map();
    }
    const wanted: Copied = new Map();
    for (const mount of mounts) {
      const prefix = mountPrefix(mount);
      const source = await openMountSource(mount.source, deps);
      await this.local.mkdir(prefix);
      const tag = mount.source.type === 'skill_version' ? `${mount.source.skillId}@${mount.source.version}` : `${mount.source.root}`;
      for (const file of await source.list('', { recursive: true })) {
        if (file.kind !== 'file') continue;
        const path = joinWorkspacePath(prefix, file.path);
        const version = `${tag}:${file.version}`;
        wanted.set(path, version);
        if (this.copied.get(path) === version) continue;
        await this.local.writeBytes(path, await source.readBytes(file.path), { createParents: true });
        this.copied.set(path, version);
      }
    }
    for (const path of [...this.copied.keys()]) {
      if (wanted.has(path)) continue;
      await this.local.delete(path).catch(() => undefined);
      this.copied.delete(path);
    }
  }
}
