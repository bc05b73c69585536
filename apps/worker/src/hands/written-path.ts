import { WORKSPACE_MOUNT } from '@agentry/harness';

/** Tools that write the one file their `file_path` names, and nothing else. */
const ONE_FILE_WRITERS = new Set(['write', 'edit']);

/**
 * The workspace path (relative to its root) of the one file a `write` or `edit` call changed, when the
 * call's own path says so plainly; undefined for any other call, or a path given in another spelling
 * (`./a`, `a//b`, `..`), a mount's or none: then the whole workspace is looked at for changes.
 */
export function writtenWorkspacePath(tool: string, input: unknown): string | undefined {
  if (!ONE_FILE_WRITERS.has(tool)) return undefined;
  const path = (input as { file_path?: unknown } | null)?.file_path;
  if (typeof path !== 'string') return undefined;
  const relative = path.startsWith(`${WORKSPACE_MOUNT}/`)
    ? path.slice(WORKSPACE_MOUNT.length + 1)
    : path.startsWith('/')
      ? undefined
      : path;
  const plain = relative?.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
  return plain ? relative : undefined;
}
