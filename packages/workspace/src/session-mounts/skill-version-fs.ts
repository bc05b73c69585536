import type { WorkspaceFs } from '../port.js';
import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import { ReadOnlyWorkspaceFs } from '../mounts/read-only-workspace-fs.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import type { SqlPort } from '../postgres/sql-port.js';

/** A stored skill version: SKILL.md, its front matter and its other files (base64). */
export interface SkillVersionRow {
  content: string;
  front_matter: { name?: unknown; description?: unknown } | null;
  files: Record<string, { content: string }> | null;
}

const SELECT_VERSION =
  'select content, front_matter, files from skill_versions where tenant_id = $1 and skill_id = $2 and version = $3';
const SELECT_LATEST =
  'select latest_version from skills where tenant_id = $1 and id = $2 and archived_at is null';

/** The version number a skill reference names: a number, or `latest` (the skill's head now); null when there is none. */
export async function resolveSkillVersion(
  sql: SqlPort,
  tenantId: string,
  skillId: string,
  ref: string,
): Promise<number | null> {
  if (/^\d+$/.test(ref)) return Number(ref);
  if (ref !== 'latest') return null;
  const { rows } = await sql.query(SELECT_LATEST, [tenantId, skillId]);
  return rows[0] ? Number(rows[0].latest_version) : null;
}

export async function readSkillVersion(
  sql: SqlPort,
  tenantId: string,
  skillId: string,
  version: number,
): Promise<SkillVersionRow | null> {
  const { rows } = await sql.query(SELECT_VERSION, [tenantId, skillId, version]);
  return (rows[0] as SkillVersionRow | undefined) ?? null;
}

/** A skill version as a read-only file tree: `SKILL.md` plus every resource file at its path. */
export async function skillVersionFs(row: SkillVersionRow): Promise<WorkspaceFs> {
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
  sql: SqlPort,
  tenantId: string,
  skillId: string,
  version: number,
): Promise<WorkspaceFs> {
  const row = await readSkillVersion(sql, tenantId, skillId, version);
  if (!row) throw WorkspaceErrors.notFound(`skill ${skillId} version ${version}`);
  return skillVersionFs(row);
}
