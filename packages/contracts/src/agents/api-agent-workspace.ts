import { z } from 'zod';

/**
 * `/api/agents/{id}/workspace`, `/skills/workspace` and `/workspace/subagents`: the files that define
 * what an agent knows and can do (AGENTS.md, knowledge/, skills/, subagents/, tools.json), kept in the
 * agent's shared workspace that every turn of the agent reads.
 */

/** Largest single file accepted; bigger writes answer 413. */
export const AGENT_WORKSPACE_MAX_FILE_BYTES = 256 * 1024;
/** Largest total an agent workspace may grow to through these routes. */
export const AGENT_WORKSPACE_MAX_TOTAL_BYTES = 8 * 1024 * 1024;
/** Most resource files one skill PUT may carry. */
export const AGENT_WORKSPACE_MAX_SKILL_RESOURCES = 64;

/** Skill and sub-agent names become one path segment; the harness accepts the same alphabet. */
export const WorkspaceItemNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'name may contain only letters, digits, ".", "_" and "-" (at most 64)',
  );

const PathSchema = z.string().min(1, 'path required').max(1024);

export const ApiWorkspaceSummarySchema = z.object({
  agentId: z.string(),
  fileCount: z.number().int(),
  totalBytes: z.number().int(),
  hasAgentsMd: z.boolean(),
  hasToolsJson: z.boolean(),
  skills: z.array(z.string()),
  subagents: z.array(z.string()),
});
export type ApiWorkspaceSummary = z.infer<typeof ApiWorkspaceSummarySchema>;

export const ApiWorkspaceEntrySchema = z.object({
  path: z.string(),
  kind: z.enum(['file', 'directory']),
  size: z.number().int(),
  /** Epoch milliseconds. */
  modifiedAt: z.number().int(),
});
export type ApiWorkspaceEntry = z.infer<typeof ApiWorkspaceEntrySchema>;

export const ApiWorkspaceEntryListSchema = z.object({ data: z.array(ApiWorkspaceEntrySchema) });
export type ApiWorkspaceEntryList = z.infer<typeof ApiWorkspaceEntryListSchema>;

export const ApiWorkspaceFileSchema = ApiWorkspaceEntrySchema.extend({
  content: z.string(),
  version: z.string(),
});
export type ApiWorkspaceFile = z.infer<typeof ApiWorkspaceFileSchema>;

/** `path` is required to delete; a read without one returns AGENTS.md. */
export const ApiWorkspaceFileQuerySchema = z.object({ path: PathSchema.optional() });

export const ApiWorkspaceFileWriteSchema = z.strictObject({ path: PathSchema, content: z.string() });

export const ApiWorkspaceMoveSchema = z.strictObject({ from: PathSchema, to: PathSchema });

export const ApiWorkspaceDeletedSchema = z.object({ path: z.string(), deleted: z.literal(true) });
export type ApiWorkspaceDeleted = z.infer<typeof ApiWorkspaceDeletedSchema>;

export const ApiWorkspaceSkillPutSchema = z.strictObject({
  /** SKILL.md, starting with front matter that names the skill and describes it. */
  markdown: z.string().min(1, 'markdown required'),
  /** Other files of the skill by their path inside the skill folder. */
  resources: z.record(z.string().min(1), z.string()).optional(),
});
export type ApiWorkspaceSkillPut = z.infer<typeof ApiWorkspaceSkillPutSchema>;

export const ApiWorkspaceSkillSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  path: z.string(),
});
export const ApiWorkspaceSkillListSchema = z.object({ data: z.array(ApiWorkspaceSkillSummarySchema) });
export type ApiWorkspaceSkillList = z.infer<typeof ApiWorkspaceSkillListSchema>;

export const ApiWorkspaceSkillSchema = ApiWorkspaceSkillSummarySchema.extend({
  markdown: z.string(),
  resources: z.array(z.string()),
});
export type ApiWorkspaceSkill = z.infer<typeof ApiWorkspaceSkillSchema>;

export const ApiWorkspaceSubagentPutSchema = z.strictObject({
  description: z.string().trim().min(1, 'description required').max(1024),
  model: z.string().min(1).max(200).optional(),
  maxIters: z.number().int().min(1).max(1000).optional(),
  tools: z.array(z.string().min(1).max(200)).max(200).optional(),
  /** The sub-agent's system prompt. */
  inlineBody: z.string().trim().min(1, 'inlineBody required'),
});
export type ApiWorkspaceSubagentPut = z.infer<typeof ApiWorkspaceSubagentPutSchema>;

export const ApiWorkspaceSubagentSchema = z.object({
  name: z.string(),
  path: z.string(),
  description: z.string(),
  model: z.string().optional(),
  maxIters: z.number().int().optional(),
  tools: z.array(z.string()).optional(),
  inlineBody: z.string(),
});
export type ApiWorkspaceSubagent = z.infer<typeof ApiWorkspaceSubagentSchema>;

export const ApiWorkspaceSubagentListSchema = z.object({ data: z.array(ApiWorkspaceSubagentSchema) });
export type ApiWorkspaceSubagentList = z.infer<typeof ApiWorkspaceSubagentListSchema>;
