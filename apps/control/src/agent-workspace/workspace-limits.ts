import { AppError } from '@agentry/contracts';
import { AGENT_WORKSPACE_MAX_TOTAL_BYTES, WorkspaceItemNameSchema } from '@agentry/contracts/api';
import { normalizeWorkspacePath, type FileStat, type WorkspaceFs } from '@agentry/workspace';

/** Runs a caller's path through the workspace path guard (PATH_ESCAPE → 400); the root itself is no file. */
export function filePath(input: string, field = 'path'): string {
  const path = normalizeWorkspacePath(input);
  if (path === '')
    throw new AppError('INVALID_REQUEST', `${field}: must name a file inside the workspace, not its root`);
  return path;
}

/** A skill or sub-agent name: one safe path segment, as the harness accepts it. */
export function itemName(name: string, what: string): string {
  const parsed = WorkspaceItemNameSchema.safeParse(name);
  if (!parsed.success)
    throw new AppError(
      'INVALID_REQUEST',
      `${what} ${JSON.stringify(name)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  return parsed.data;
}

/** Every file of the workspace (directories left out). */
export async function allFiles(fs: WorkspaceFs): Promise<FileStat[]> {
  return (await fs.list('', { recursive: true })).filter((entry) => entry.kind === 'file');
}

/**
 * Refuses a write that would push the workspace past its total size. `incoming` maps each path about
 * to be written to its new size; the files it replaces no longer count.
 */
export async function assertTotalFits(
  fs: WorkspaceFs,
  incoming: Map<string, number>,
  replacedPrefix?: string,
): Promise<void> {
  let total = 0;
  for (const file of await allFiles(fs)) {
    if (incoming.has(file.path) || (replacedPrefix && file.path.startsWith(replacedPrefix))) continue;
    total += file.size;
  }
  for (const size of incoming.values()) total += size;
  if (total > AGENT_WORKSPACE_MAX_TOTAL_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The agent workspace would hold ${total} bytes; the limit is ${AGENT_WORKSPACE_MAX_TOTAL_BYTES}`,
      {
        details: { size: total, limit: AGENT_WORKSPACE_MAX_TOTAL_BYTES },
      },
    );
  }
}
