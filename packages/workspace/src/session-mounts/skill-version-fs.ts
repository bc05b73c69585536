import type { WorkspaceFs } from '../port.js';
import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import { ReadOnlyWorkspaceFs } from '../mounts/read-only-workspace-fs.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import type { MountContentReader, SkillVersionRow } from './mount-content.js';

/** A skill version as a read-only file tree: `SKILL.md` plus every resource file at its path. */
async function skillVersionFs(row: SkillVersionRow): Promise<WorkspaceFs> {
  const fs = new MemoryWorkspaceFs();
  await fs.writeText('SKILL.md', row.content);
  for (const [path, file] of Object.entries(row.files ?? {})) {
    if (path === 'SKILL.md') continue;
    await fs.writeBytes(path, Buffer.from(file.content, 'base64'), { createParents: true });
  }
  return new ReadOnlyWorkspaceFs(fs);
}

/** Opens one version, or fails with NOT_FOUND naming it (a skill deleted after the agent attached it). */
export async function openSkillVersion(
  content: MountContentReader,
  tenantId: string,
  skillId: string,
  version: number,
): Promise<WorkspaceFs> {
  const row = await content.skillVersion(tenantId, skillId, String(version));
  if (!row) throw WorkspaceErrors.notFound(`skill ${skillId} version ${version}`);
  return skillVersionFs(row);
}
