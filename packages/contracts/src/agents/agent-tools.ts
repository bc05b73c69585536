import { z } from 'zod';

/** Permission policies and tool definitions of an agent (CMA `tools[]`). */

const PermissionPolicySchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('always_allow') }),
  z.strictObject({ type: z.literal('always_ask') }),
  z.strictObject({ type: z.literal('auto') }),
]);
export type PermissionPolicy = z.infer<typeof PermissionPolicySchema>;

/** The built-in tools of `agent_toolset_20260401`. */
export const AGENT_TOOLSET_TOOL_NAMES = [
  'bash',
  'edit',
  'read',
  'write',
  'glob',
  'grep',
  'web_fetch',
  'web_search',
] as const;
const AgentToolNameSchema = z.enum(AGENT_TOOLSET_TOOL_NAMES);
export type AgentToolName = z.infer<typeof AgentToolNameSchema>;

const DomainListSchema = z.array(z.string().min(1)).max(64);

const ToolsetDefaultConfigParamsSchema = z.strictObject({
  enabled: z.boolean().nullable().optional(),
  permission_policy: PermissionPolicySchema.nullable().optional(),
});
export type ToolsetDefaultConfigParams = z.infer<typeof ToolsetDefaultConfigParamsSchema>;

/** Per-tool override inside `agent_toolset_20260401.configs[]`. Web tools take extra filters. */
const AgentToolConfigParamsSchema = z.strictObject({
  name: AgentToolNameSchema,
  type: AgentToolNameSchema.optional(),
  enabled: z.boolean().nullable().optional(),
  permission_policy: PermissionPolicySchema.nullable().optional(),
  allowed_domains: DomainListSchema.optional(),
  blocked_domains: DomainListSchema.optional(),
  max_content_tokens: z.number().int().positive().nullable().optional(),
  url_sources: z.unknown().optional(),
  user_location: z.unknown().optional(),
});
export type AgentToolConfigParams = z.infer<typeof AgentToolConfigParamsSchema>;

const AgentToolsetParamsSchema = z.strictObject({
  type: z.literal('agent_toolset_20260401'),
  default_config: ToolsetDefaultConfigParamsSchema.nullable().optional(),
  configs: z.array(AgentToolConfigParamsSchema).optional(),
});

const McpToolConfigParamsSchema = z.strictObject({
  name: z.string().min(1).max(128),
  enabled: z.boolean().nullable().optional(),
  permission_policy: PermissionPolicySchema.nullable().optional(),
});

const McpToolsetParamsSchema = z.strictObject({
  type: z.literal('mcp_toolset'),
  mcp_server_name: z.string().min(1).max(255),
  default_config: ToolsetDefaultConfigParamsSchema.nullable().optional(),
  configs: z.array(McpToolConfigParamsSchema).optional(),
});
export type McpToolsetParams = z.infer<typeof McpToolsetParamsSchema>;

/** The tools of `memory_toolset_20261030`: the first three read, the others write. */
const MEMORY_TOOL_NAMES = [
  'memory_list',
  'memory_read',
  'memory_search',
  'memory_write',
  'memory_str_replace',
  'memory_append',
  'memory_delete',
] as const;
const MemoryToolNameSchema = z.enum(MEMORY_TOOL_NAMES);
export type MemoryToolName = z.infer<typeof MemoryToolNameSchema>;

const MemoryToolConfigParamsSchema = z
  .strictObject({
    name: MemoryToolNameSchema,
    type: MemoryToolNameSchema.optional(),
    enabled: z.boolean().nullable().optional(),
    permission_policy: PermissionPolicySchema.nullable().optional(),
  })
  .refine((c) => c.type === undefined || c.type === c.name, {
    message: 'type must equal name',
    path: ['type'],
  });

/** Memory tools over the session's memory stores (an entry with `type` alone enables all of them). */
const MemoryToolsetParamsSchema = z.strictObject({
  type: z.literal('memory_toolset_20261030'),
  default_config: ToolsetDefaultConfigParamsSchema.nullable().optional(),
  configs: z
    .array(MemoryToolConfigParamsSchema)
    .nullable()
    .optional()
    .refine((configs) => new Set(configs?.map((c) => c.name)).size === (configs?.length ?? 0), {
      message: 'configs may name each memory tool once',
    }),
});

/** A JSON Schema object; only the top-level `type: "object"` is checked. */
const ToolInputSchemaSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), z.unknown()).nullable().optional(),
  required: z.array(z.string()).nullable().optional(),
});

/** A tool the client executes itself; not subject to permission policies. */
const CustomToolSchema = z.strictObject({
  type: z.literal('custom'),
  name: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/, 'name may contain only letters, digits, underscores and hyphens'),
  description: z.string().min(1).max(10_000),
  input_schema: ToolInputSchemaSchema,
});

export const AgentToolParamsSchema = z.discriminatedUnion('type', [
  AgentToolsetParamsSchema,
  McpToolsetParamsSchema,
  CustomToolSchema,
  MemoryToolsetParamsSchema,
]);
export type AgentToolParams = z.infer<typeof AgentToolParamsSchema>;

/** Returned shapes: every default filled in. */
const ToolsetDefaultConfigSchema = z.object({
  enabled: z.boolean(),
  permission_policy: PermissionPolicySchema,
});
export type ToolsetDefaultConfig = z.infer<typeof ToolsetDefaultConfigSchema>;

const AgentToolConfigSchema = z.object({
  name: AgentToolNameSchema,
  type: AgentToolNameSchema,
  enabled: z.boolean(),
  permission_policy: PermissionPolicySchema,
  allowed_domains: z.array(z.string()).optional(),
  blocked_domains: z.array(z.string()).optional(),
  max_content_tokens: z.number().int().nullable().optional(),
  url_sources: z.unknown().optional(),
  user_location: z.unknown().optional(),
});
export type AgentToolConfig = z.infer<typeof AgentToolConfigSchema>;

const AgentToolsetSchema = z.object({
  type: z.literal('agent_toolset_20260401'),
  default_config: ToolsetDefaultConfigSchema,
  configs: z.array(AgentToolConfigSchema),
});

const McpToolsetSchema = z.object({
  type: z.literal('mcp_toolset'),
  mcp_server_name: z.string(),
  default_config: ToolsetDefaultConfigSchema,
  configs: z.array(
    z.object({ name: z.string(), enabled: z.boolean(), permission_policy: PermissionPolicySchema }),
  ),
});

const MemoryToolsetSchema = z.object({
  type: z.literal('memory_toolset_20261030'),
  default_config: ToolsetDefaultConfigSchema,
  configs: z.array(
    z.object({
      name: MemoryToolNameSchema,
      type: MemoryToolNameSchema,
      enabled: z.boolean(),
      permission_policy: PermissionPolicySchema,
    }),
  ),
});
export type MemoryToolset = z.infer<typeof MemoryToolsetSchema>;

export const AgentToolSchema = z.discriminatedUnion('type', [
  AgentToolsetSchema,
  McpToolsetSchema,
  CustomToolSchema,
  MemoryToolsetSchema,
]);
export type AgentTool = z.infer<typeof AgentToolSchema>;
