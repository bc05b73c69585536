import { AppError } from '@agentry/contracts';

/** Where the session's workspace appears to commands (`bash` runs with this as its home and first cwd). */
export const WORKSPACE_MOUNT = '/workspace';

/**
 * A tool path as the workspace port takes it: relative to the workspace. Absolute paths are accepted
 * only under the mount point, so `/workspace/a.txt` from a shell listing and `a.txt` name the same file;
 * `..` escapes are refused by the workspace itself.
 */
export function toWorkspacePath(path: string): string {
  if (!path.startsWith('/')) return path;
  if (path === WORKSPACE_MOUNT) return '';
  if (path.startsWith(`${WORKSPACE_MOUNT}/`)) return path.slice(WORKSPACE_MOUNT.length + 1);
  throw new AppError('PATH_ESCAPE', `${path} is outside the workspace (${WORKSPACE_MOUNT})`);
}
