import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntryKind } from './durable-copy.js';

/** What an entry looked like when last seen: any difference means it changed since. */
interface LocalEntry {
  kind: EntryKind;
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  target?: string;
}

export type LocalTree = Map<string, LocalEntry>;

/** Selects the entries a mirror keeps (by path relative to its root); the rest are not the session's. */
export type EntryFilter = (path: string) => boolean;

/**
 * Directories, regular files and symlinks under `root` by relative path, from lstat only: symlinks are
 * recorded with their target and never followed; sockets, fifos and devices are not the session's data.
 */
export async function scanTree(root: string, include: EntryFilter = () => true): Promise<LocalTree> {
  const tree: LocalTree = new Map();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = prefix ? `${prefix}/${name}` : name;
      if (!include(path)) continue;
      const full = join(dir, name);
      const info = await lstat(full).catch(() => null);
      if (!info) continue;
      const kind: EntryKind | null = info.isDirectory()
        ? 'dir'
        : info.isFile()
          ? 'file'
          : info.isSymbolicLink()
            ? 'symlink'
            : null;
      if (!kind) continue;
      const entry: LocalEntry = {
        kind,
        mode: info.mode & 0o7777,
        size: kind === 'file' ? info.size : 0,
        mtimeMs: info.mtimeMs,
        ctimeMs: info.ctimeMs,
        ino: info.ino,
      };
      if (kind === 'symlink') {
        const target = await readlink(full).catch(() => null);
        if (target === null) continue;
        entry.target = target;
      }
      tree.set(path, entry);
      if (kind === 'dir') await walk(full, path);
    }
  };
  await walk(root, '');
  return tree;
}

/** Whether `entry` must be stored again: a directory only when its mode changed (children are entries). */
export function changedSince(entry: LocalEntry, before: LocalEntry | undefined): boolean {
  if (!before || before.kind !== entry.kind || before.mode !== entry.mode) return true;
  if (entry.kind === 'dir') return false;
  if (entry.kind === 'symlink') return before.target !== entry.target;
  return (
    before.size !== entry.size ||
    before.mtimeMs !== entry.mtimeMs ||
    before.ctimeMs !== entry.ctimeMs ||
    before.ino !== entry.ino
  );
}
