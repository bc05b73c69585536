import { z } from 'zod';
import { AGENT_TOOLSET_TOOL_NAMES, AgentToolParamsSchema, AgentToolSchema } from './agent-tools.js';
import {
  DescriptionSchema,
  IsoDateTimeSchema,
  LIMITS,
  MetadataPatchSchema,
  MetadataSchema,
  NameSchema,
} from '../common/common.js';
import { MultiagentParamsSchema, MultiagentSchema } from './multiagent.js';

const EffortLevelSchema = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);

/** `model` in a request: a bare model id or a config object; effort as a string or `{type}`. */
const ModelConfigParamsSchema = z.strictObject({
  id: z.string().min(1),
  effort: z
    .union([EffortLevelSchema, z.strictObject({ type: EffortLevelSchema })])
    .nullable()
    .optional(),
  inference_geo: z.string().nullable().optional(),
  speed: z.enum(['standard', 'fast']).nullable().optional(),
  /** Agentry extension: the script of the `scripted` model (see the harness README). */
  script: z.record(z.string(), z.unknown()).optional(),
});
export const ModelParamsSchema = z.union([
  z.string().min(1, 'model must not be empty'),
  ModelConfigParamsSchema,
]);
export type ModelParams = z.infer<typeof ModelParamsSchema>;

const ModelConfigSchema = z.object({
  id: z.string(),
  effort: z.object({ type: EffortLevelSchema }).optional(),
  inference_geo: z.string().optional(),
  speed: z.enum(['standard', 'fast']).optional(),
  script: z.record(z.string(), z.unknown()).optional(),
});
export type ModelConfig = z.infer<typeof ModelConfigSchema>;

/** Normalises either request form of `model` into the stored config object. */
export function toModelConfig(model: ModelParams): ModelConfig {
  if (typeof model === 'string') return { id: model };
  const config: ModelConfig = { id: model.id };
  if (model.effort) config.effort = typeof model.effort === 'string' ? { type: model.effort } : model.effort;
  if (model.inference_geo) config.inference_geo = model.inference_geo;
  if (model.speed) config.speed = model.speed;
  if (model.script) config.script = model.script;
  return config;
}

export const McpServerSchema = z.strictObject({
  type: z.literal('url'),
  name: z.string().min(1).max(255),
  url: z.url(),
});
export type McpServer = z.infer<typeof McpServerSchema>;

export const SkillParamsSchema = z.strictObject({
  type: z.enum(['anthropic', 'custom']),
  skill_id: z.string().min(1),
  version: z.string().nullable().optional(),
});
const AgentSkillSchema = z.object({
  type: z.enum(['anthropic', 'custom']),
  skill_id: z.string(),
  version: z.string(),
});
export type AgentSkill = z.infer<typeof AgentSkillSchema>;

const ExecutionIdentitySchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('service_account') }),
  z.strictObject({ type: z.literal('aws_role'), role_arn: z.string().min(1) }),
]);

const SystemSchema = z.string().max(LIMITS.systemMax, `system may be at most ${LIMITS.systemMax} characters`);
const ToolsSchema = z
  .array(AgentToolParamsSchema)
  .max(LIMITS.toolsMax, `tools may hold at most ${LIMITS.toolsMax} entries`)
  .superRefine((tools, ctx) => {
    // A custom tool the model calls by the name of another tool would be routed to the wrong one.
    const seen = new Set<string>(AGENT_TOOLSET_TOOL_NAMES);
    tools.forEach((tool, index) => {
      if (tool.type !== 'custom') return;
      if (seen.has(tool.name)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `custom tool name ${tool.name} is already taken by another tool`,
        });
      }
      seen.add(tool.name);
    });
  });
const McpServersSchema = z
  .array(McpServerSchema)
  .max(LIMITS.mcpServersMax, `mcp_servers may hold at most ${LIMITS.mcpServersMax} servers`);

export const CreateAgentRequestSchema = z.strictObject({
  name: NameSchema,
  model: ModelParamsSchema,
  description: DescriptionSchema.nullable().optional(),
  system: SystemSchema.nullable().optional(),
  tools: ToolsSchema.optional(),
  mcp_servers: McpServersSchema.optional(),
  skills: z.array(SkillParamsSchema).optional(),
  multiagent: MultiagentParamsSchema.nullable().optional(),
  execution_identity: ExecutionIdentitySchema.nullable().optional(),
  metadata: MetadataSchema.optional(),
});
export type CreateAgentRequest = z.infer<typeof CreateAgentRequestSchema>;

/**
 * Partial update: omit a field to keep it, null to clear it. `version` is the optimistic-concurrency
 * guard: a stale one is a 409. CMA lets clients omit it (unconditional update), so it stays optional.
 */
export const UpdateAgentRequestSchema = z.strictObject({
  version: z.number().int().min(1).optional(),
  name: NameSchema.optional(),
  model: ModelParamsSchema.optional(),
  description: DescriptionSchema.nullable().optional(),
  system: SystemSchema.nullable().optional(),
  tools: ToolsSchema.nullable().optional(),
  mcp_servers: McpServersSchema.nullable().optional(),
  skills: z.array(SkillParamsSchema).nullable().optional(),
  multiagent: MultiagentParamsSchema.nullable().optional(),
  execution_identity: ExecutionIdentitySchema.nullable().optional(),
  metadata: MetadataPatchSchema.nullable().optional(),
});
export type UpdateAgentRequest = z.infer<typeof UpdateAgentRequestSchema>;

/** The fields an agent version pins; sessions embed them as their agent snapshot. */
export const AgentSnapshotSchema = z.object({
  type: z.literal('agent'),
  id: z.string(),
  version: z.number().int().min(1),
  name: z.string(),
  description: z.string().nullable(),
  system: z.string().nullable(),
  model: ModelConfigSchema,
  tools: z.array(AgentToolSchema),
  mcp_servers: z.array(McpServerSchema),
  skills: z.array(AgentSkillSchema),
  multiagent: MultiagentSchema.nullable(),
  execution_identity: ExecutionIdentitySchema,
});
export type AgentSnapshot = z.infer<typeof AgentSnapshotSchema>;

export const AgentSchema = AgentSnapshotSchema.extend({
  metadata: MetadataSchema,
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
});
export type Agent = z.infer<typeof AgentSchema>;

export const RetrieveAgentParamsSchema = z.object({ version: z.coerce.number().int().min(1).optional() });
