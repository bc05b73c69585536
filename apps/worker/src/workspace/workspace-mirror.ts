import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { BaseWorkspaceFs } from '@agentry/workspace';

/** What a file looked like when last synced: a change of size or mtime means it must be copied again. */
interface Seen {
  size: number;
  mtimeMs: number;
}

export type Snapshot = Map<string, Seen>;

/** Regular files under `root`, by path relative to it; symlinks and special files are not the session's data. */
async function snapshotOf(root: string): Promise<Snapshot> {
  const files: Snapshot = new Map();
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        const info = await stat(full).catch(() => null);
        if (info) files.set(relative(root, full), { size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  };
  await walk(root);
  return files;
}

/**
 * Keeps a worker's local copy of a session workspace and its durable copy (a WorkspaceFs, Postgres in
 * production) in step: `restore` makes the local directory exactly the durable one (the session just
 * came to this worker), `sync` copies what the last call changed the other way.
 */
export class WorkspaceMirror {
  private seen: Snapshot = new Map();

  constructor(
    private readonly local: string,
    private readonly durable: BaseWorkspaceFs,
    private readonly onSkipped: (path: string, why: string) => void = () => undefined,
  ) {}

  async restore(): Promise<void> {
    const stored = (await this.durable.list('', { recursive: true })).filter((f) => f.kind === 'file');
    const wanted = new Set(stored.map((f) => f.path));
    await mkdir(this.local, { recursive: true });
    for (const path of (await snapshotOf(this.local)).keys())
      if (!wanted.has(path)) await rm(join(this.local, path), { force: true });
    for (const file of stored) {
      const target = join(this.local, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, await this.durable.readBytes(file.path));
    }
    this.seen = await snapshotOf(this.local);
  }

  /** Copies files created or changed since the last restore or sync, and deletes those removed. */
  async sync(): Promise<void> {
    const now = await snapshotOf(this.local);
    for (const [path, seen] of now) {
      const before = this.seen.get(path);
      if (before && before.size === seen.size && before.mtimeMs === seen.mtimeMs) continue;
      if (seen.size > this.durable.maxFileBytes) {
        this.onSkipped(path, `larger than ${this.durable.maxFileBytes} bytes`);
        continue;
      }
      const content = await readFile(join(this.local, path)).catch(() => null);
      if (content) await this.durable.writeBytes(path, content, { createParents: true });
    }
    for (const path of this.seen.keys())
      if (!now.has(path)) await this.durable.delete(path).catch(() => undefined);
    this.seen = now;
  }
}
