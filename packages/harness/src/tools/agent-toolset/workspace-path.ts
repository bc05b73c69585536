import { AppError } from '@agentry/contracts';
import type { WorkspaceFs } from '@agentry/workspace';
import type { FileMount } from '../tool.js';

/** Where the session's workspace appears to commands (`bash` runs with this as its home and first cwd). */
export const WORKSPACE_MOUNT = '/workspace';

/**
 * A tool path as the workspace port takes it: relative to the workspace. Absolute paths are accepted
 * only under the mount point, so `/workspace/a.txt` from a shell listing and `a.txt` name the same file;
 * `..` escapes are refused by the workspace itself.
 */
function toWorkspacePath(path: string): string {
  if (!path.startsWith('/')) return path;
  if (path === WORKSPACE_MOUNT) return '';
  if (path.startsWith(`${WORKSPACE_MOUNT}/`)) return path.slice(WORKSPACE_MOUNT.length + 1);
  throw new AppError('PATH_ESCAPE', `${path} is outside the workspace (${WORKSPACE_MOUNT})`);
}

/** A tool path resolved to the tree that holds it, with the way to show that tree's paths back to the model. */
export interface ResolvedToolPath {
  fs: WorkspaceFs;
  path: string;
  /** A path of `fs` as the model should see it (absolute under a mount, relative in the workspace). */
  shown: (inner: string) => string;
}

/**
 * Resolves a tool path against the workspace and the mounts beside it: an absolute path under a mount
 * (the longest match wins) goes to that mount's tree, anything else to the workspace as before.
 */
export function resolveToolPath(
  context: { fs: WorkspaceFs; mounts?: readonly FileMount[] | undefined },
  path: string,
): ResolvedToolPath {
  const mount = path.startsWith('/') ? mountOf(context.mounts ?? [], path) : undefined;
  if (!mount) {
    try {
      return { fs: context.fs, path: toWorkspacePath(path), shown: (inner) => inner };
    } catch (error) {
      const roots = (context.mounts ?? []).map((m) => m.path);
      if (roots.length === 0 || !AppError.is(error, 'PATH_ESCAPE')) throw error;
      throw new AppError(
        'PATH_ESCAPE',
        `${path} is outside the workspace (${WORKSPACE_MOUNT}) and the mounts (${roots.join(', ')})`,
      );
    }
  }
  const inner = path === mount.path ? '' : path.slice(mount.path.length + 1);
  return { fs: mount.fs, path: inner, shown: (p) => (p === '' ? mount.path : `${mount.path}/${p}`) };
}

function mountOf(mounts: readonly FileMount[], path: string): FileMount | undefined {
  return [...mounts]
    .sort((a, b) => b.path.length - a.path.length)
    .find((m) => path === m.path || path.startsWith(`${m.path}/`));
}
