import type { Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntryKind } from './durable-copy.js';

/** What an entry looked like when last seen: any difference means it changed since. */
export interface LocalEntry {
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
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) =>
      include(prefix ? `${prefix}/${name}` : name),
    );
    // One directory's entries are looked at together (the thread pool's lstat calls overlap), in order.
    const infos = await Promise.all(names.map((name) => lstat(join(dir, name)).catch(() => null)));
    for (const [index, name] of names.entries()) {
      const path = prefix ? `${prefix}/${name}` : name;
      const full = join(dir, name);
      const info = infos[index];
      const entry = info && (await entryOf(info, full));
      if (!entry) continue;
      tree.set(path, entry);
      if (entry.kind === 'dir') await walk(full, path);
    }
  };
  await walk(root, '');
  return tree;
}

/**
 * What the session keeps of one entry, from its lstat (a symlink with its target); null for what is not
 * the session's data (sockets, fifos, devices) or a symlink gone before its target was read.
 */
export async function entryOf(info: Stats, full: string): Promise<LocalEntry | null> {
  const kind: EntryKind | null = info.isDirectory()
    ? 'dir'
    : info.isFile()
      ? 'file'
      : info.isSymbolicLink()
        ? 'symlink'
        : null;
  if (!kind) return null;
  const entry: LocalEntry = {
    kind,
    mode: info.mode & 0o7777,
    size: kind === 'file' ? info.size : 0,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    ino: info.ino,
  };
  if (kind !== 'symlink') return entry;
  const target = await readlink(full).catch(() => null);
  return target === null ? null : { ...entry, target };
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
