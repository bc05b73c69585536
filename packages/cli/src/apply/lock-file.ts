import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApplyKind } from './resource-files.js';

/** What apply remembers of one file: the resource it made, its version then, and what it sent. */
interface LockEntry {
  kind: ApplyKind;
  id: string;
  version: number | null;
  applied: Record<string, unknown>;
}

export type LockFile = Record<string, LockEntry>;

const LOCK_FILE_NAME = 'agentry.lock.json';

export function readLockFile(folder: string): LockFile {
  const path = join(folder, LOCK_FILE_NAME);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as LockFile) : {};
}

export function writeLockFile(folder: string, lock: LockFile): void {
  const sorted = Object.fromEntries(Object.entries(lock).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(folder, LOCK_FILE_NAME), `${JSON.stringify(sorted, null, 2)}\n`);
}
