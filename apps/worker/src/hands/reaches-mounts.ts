import { WORKSPACE_MOUNT } from '@agentry/harness';

/** The file tools that name one file; the workspace or a mount holds it, by its path (see resolveToolPath). */
const ONE_FILE_TOOLS = new Set(['read', 'write', 'edit']);

/**
 * Whether a call may see the session's mounts (/mnt), so they must be brought up to date before it runs. A
 * command sees all of /mnt, and `glob` and `grep` may search it; a `read`, `write` or `edit` of a relative
 * path or one under /workspace reaches the workspace alone (every mount lies under /mnt).
 */
export function reachesMounts(tool: string, input: unknown): boolean {
  if (!ONE_FILE_TOOLS.has(tool)) return true;
  const path = (input as { file_path?: unknown } | null)?.file_path;
  if (typeof path !== 'string') return true;
  return path.startsWith('/') && path !== WORKSPACE_MOUNT && !path.startsWith(`${WORKSPACE_MOUNT}/`);
}
