import { AppError } from '@agentry/contracts';
import type { FileStat, WorkspaceFs } from '@agentry/workspace';

function isNotFound(error: unknown): boolean {
  if (AppError.is(error, 'NOT_FOUND')) return true;
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'NOT_FOUND';
}

/** Reads a text file, or returns null when it does not exist (optional workspace files are normal). */
export async function readOptionalText(fs: WorkspaceFs, path: string): Promise<string | null> {
  try {
    return await fs.readText(path);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Lists a directory, or returns [] when it does not exist. */
async function listOptional(
  fs: WorkspaceFs,
  path: string,
  options?: { recursive?: boolean; glob?: string },
): Promise<FileStat[]> {
  try {
    return await fs.list(path, options);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** Workspace-relative paths of the files under a directory (backends may report paths relative to it). */
export async function listFilePaths(fs: WorkspaceFs, dir: string, recursive = true): Promise<string[]> {
  const stats = await listOptional(fs, dir, { recursive });
  const prefix = dir === '' || dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`;
  return stats
    .filter((stat) => stat.kind === 'file')
    .map((stat) => (prefix === '' || stat.path.startsWith(prefix) ? stat.path : `${prefix}${stat.path}`))
    .sort();
}

/** Workspace-relative paths of the direct subdirectories of a directory. */
export async function listDirectoryPaths(fs: WorkspaceFs, dir: string): Promise<string[]> {
  const stats = await listOptional(fs, dir, { recursive: false });
  const prefix = dir === '' || dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`;
  return stats
    .filter((stat) => stat.kind === 'directory')
    .map((stat) => (prefix === '' || stat.path.startsWith(prefix) ? stat.path : `${prefix}${stat.path}`))
    .sort();
}
