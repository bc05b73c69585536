import { realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { lstatOrNull } from './small-file.js';

function inside(candidate: string, realRoot: string): boolean {
  return candidate === realRoot || candidate.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/**
 * Rejects a host path whose real location leaves `realRoot` through a symlink. Walks up to the deepest
 * existing ancestor; a dangling symlink anywhere on the way is refused too, because writing through it
 * would create a file wherever it points. Synchronous: a few path lookups on a local disk (see readSmallFile).
 */
export function assertConfined(hostPath: string, root: string, realRoot: string, logical: string): void {
  let current = hostPath;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      if (!inside(real, realRoot)) throw WorkspaceErrors.escape(logical, 'symlink leaves the root');
      return;
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code !== 'ENOENT' &&
        (error as NodeJS.ErrnoException).code !== 'ENOTDIR'
      )
        throw error;
    }
    const link = lstatOrNull(current);
    if (link?.isSymbolicLink()) throw WorkspaceErrors.escape(logical, 'dangling symlink');
    const parent = dirname(current);
    if (current === root || parent === current) return;
    current = parent;
  }
}
