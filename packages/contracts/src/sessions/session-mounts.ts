import { z } from 'zod';

/**
 * What the Brain owns, shown in a session's file tree beside `/workspace`: every path is read-only for
 * the session's tools (the Brain writes these trees; the session reads them with `read`, `glob`, `grep`,
 * `bash`). Documented in docs/mounts.md.
 */
export const MOUNTS_ROOT = '/mnt';
export const SESSION_MOUNT_PATHS = {
  /** The agent's definition files: AGENTS.md, MEMORY.md, memory/, knowledge/, skills/, subagents/, tools.json. */
  agent: '/mnt/agent',
  /** `/v1` skills attached to the agent, the pinned version of each at `/mnt/skills/<name>/`. */
  skills: '/mnt/skills',
  /** Tool outputs too large for the context, one file per tool call, this session's only. */
  toolResults: '/mnt/tool_results',
  /** This session's plan (`plans/PLAN.md` of plan_write). */
  plans: '/mnt/plans',
  /** Memory stores of the session's `resources[]`, each at `/mnt/memory/<slug of its name>`. */
  memory: '/mnt/memory',
} as const;

/** The top-level entries of an agent workspace that are its definition (and AGENT-scope memory). */
export const AGENT_DEFINITION_ENTRIES = [
  'AGENTS.md',
  'MEMORY.md',
  'memory',
  'knowledge',
  'skills',
  'subagents',
  'tools.json',
] as const;

/** Where a session's Brain-side artefacts (evicted tool outputs, plans) are kept: one root per session. */
export function sessionArtefactsRoot(tenantId: string, sessionId: string): string {
  return `tenants/${tenantId}/brain/sessions/${sessionId}`;
}

const MountPathSchema = z
  .string()
  .regex(/^\/mnt(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/, 'a mount path is an absolute path below /mnt');
const RelativeDirSchema = z.string().regex(/^([A-Za-z0-9][A-Za-z0-9._-]*)(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/);

/** A tree of `workspace_files` rows (one root of the tenant), optionally one directory of it or some top-level entries. */
const WorkspaceMountSourceSchema = z.object({
  type: z.literal('workspace'),
  root: z.string().min(1),
  dir: RelativeDirSchema.optional(),
  include: z.array(z.string().min(1)).optional(),
});

/** One version of a `/v1` skill: SKILL.md and its resource files (versions never change). */
const SkillVersionMountSourceSchema = z.object({
  type: z.literal('skill_version'),
  skillId: z.string().min(1),
  version: z.number().int().positive(),
});

const FileNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);

/** Uploaded files (Files API, `resources[{type:"file"}]`), each shown under its name in the mount's directory. */
const FilesMountSourceSchema = z.object({
  type: z.literal('files'),
  files: z.array(z.object({ name: FileNameSchema, fileId: z.string().min(1) })).min(1),
});

/** The live memories of a memory store, one file per memory at its path; writable for a `read_write` resource. */
const MemoryStoreMountSourceSchema = z.object({
  type: z.literal('memory_store'),
  storeId: z.string().min(1),
  writable: z.boolean(),
});

const SessionMountSourceSchema = z.discriminatedUnion('type', [
  WorkspaceMountSourceSchema,
  SkillVersionMountSourceSchema,
  FilesMountSourceSchema,
  MemoryStoreMountSourceSchema,
]);
export type SessionMountSource = z.infer<typeof SessionMountSourceSchema>;

/** One tree at `path` in the session's file tree: read-only, except a writable memory store. */
export const SessionMountSchema = z.object({ path: MountPathSchema, source: SessionMountSourceSchema });
export type SessionMount = z.infer<typeof SessionMountSchema>;

/** Whether the session's tools may write below the mount (its changes are written back to the source). */
export function isWritableMount(mount: SessionMount): boolean {
  return mount.source.type === 'memory_store' && mount.source.writable;
}
