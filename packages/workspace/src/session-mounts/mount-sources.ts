import { MOUNTS_ROOT, type SessionMount, type SessionMountSource } from '@agentry/contracts';
import type { WorkspaceFs } from '../port.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import { MountedWorkspaceFs } from '../mounts/mounted-workspace-fs.js';
import { ReadOnlyWorkspaceFs } from '../mounts/read-only-workspace-fs.js';
import { SubtreeViewFs } from '../mounts/subtree-view-fs.js';
import { workspaceChangeMark } from '../postgres/change-marks.js';
import { PostgresWorkspaceFs } from '../postgres/postgres-workspace-fs.js';
import type { NamedSqlPort, SqlPort } from '../postgres/sql-port.js';
import type { MountContentReader } from './mount-content.js';
import { filesTree, memoryStoreTree } from './resource-sources.js';
import { openSkillVersion } from './skill-version-fs.js';

export interface MountSourceDeps {
  /** Workspace trees (definition files, artefacts), read-only. */
  sql: SqlPort & NamedSqlPort;
  /** Files, memory stores and skill versions, from the service that owns them. */
  content: MountContentReader;
  tenantId: string;
  /** Opened skill versions, reused across calls (versions never change). */
  skillCache?: Map<string, Promise<WorkspaceFs>>;
}

/**
 * A mount source as a read-only file tree (a writable memory store is written through its mirror, never
 * through this tree); a workspace root must belong to the tenant.
 */
export async function openMountSource(
  source: SessionMountSource,
  deps: MountSourceDeps,
): Promise<WorkspaceFs> {
  if (source.type === 'files')
    return new ReadOnlyWorkspaceFs(await filesTree(deps.content, deps.tenantId, source.files));
  if (source.type === 'memory_store')
    return new ReadOnlyWorkspaceFs(await memoryStoreTree(deps.content, deps.tenantId, source.storeId));
  if (source.type === 'workspace') {
    if (!source.root.startsWith(`tenants/${deps.tenantId}/`))
      return Promise.reject(WorkspaceErrors.invalid(`mount root ${source.root} is not the tenant's`));
    const fs = new PostgresWorkspaceFs({
      sql: deps.sql,
      table: 'workspace_files',
      tenantId: deps.tenantId,
      root: source.root,
      readOnly: true,
    });
    return Promise.resolve(
      new SubtreeViewFs(fs, {
        ...(source.dir ? { dir: source.dir } : {}),
        ...(source.include ? { include: source.include } : {}),
      }),
    );
  }
  const key = `${deps.tenantId}/${source.skillId}@${source.version}`;
  const cached = deps.skillCache?.get(key);
  if (cached) return cached;
  const opened = openSkillVersion(deps.content, deps.tenantId, source.skillId, source.version);
  deps.skillCache?.set(key, opened);
  opened.catch(() => deps.skillCache?.delete(key));
  return opened;
}

/**
 * A value that moves whenever what these mounts show may have changed, or null when that cannot be told
 * cheaply (files and memory stores are read whole from their service). Workspace trees are marked by their
 * rows (see workspaceChangeMark); a skill mount shows one version, which never changes.
 */
export async function mountsChangeMark(
  mounts: readonly SessionMount[],
  deps: MountSourceDeps,
): Promise<string | null> {
  const roots: string[] = [];
  for (const { source } of mounts) {
    if (source.type === 'workspace') roots.push(source.root);
    else if (source.type !== 'skill_version') return null;
  }
  const rows = roots.length
    ? await workspaceChangeMark(deps.sql, 'workspace_files', deps.tenantId, [...new Set(roots)])
    : '';
  return `${JSON.stringify(mounts)}#${rows}`;
}

/** Where a mount appears relative to /mnt ("agent", "skills/pdf"). */
export function mountPrefix(mount: Pick<SessionMount, 'path'>): string {
  return mount.path.slice(MOUNTS_ROOT.length + 1);
}

/**
 * Every mount of a session as one read-only tree, the one a tool sees at /mnt: the directories leading
 * to mounts are listed, everything else under /mnt does not exist.
 */
export async function openMountTree(
  mounts: readonly SessionMount[],
  deps: MountSourceDeps,
): Promise<WorkspaceFs> {
  const opened = await Promise.all(
    mounts.map(async (m) => ({
      prefix: mountPrefix(m),
      fs: await openMountSource(m.source, deps),
      readOnly: true,
    })),
  );
  return new MountedWorkspaceFs([
    { prefix: '', fs: new ReadOnlyWorkspaceFs(new MemoryWorkspaceFs()), readOnly: true },
    ...opened,
  ]);
}
