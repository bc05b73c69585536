import { z } from 'zod';

/** AgentScope-style (camelCase) agent shapes served on `/api/agents`. */

/** AgentScope also knew `deny`; it maps to a disabled tool. */
const ApiPermissionPolicySchema = z.object({
  type: z.enum(['always_allow', 'always_ask', 'auto', 'deny']),
});
export type ApiPermissionPolicy = z.infer<typeof ApiPermissionPolicySchema>;

const ApiToolConfigSchema = z.object({
  name: z.string().min(1).max(128),
  enabled: z.boolean().nullish(),
  permissionPolicy: ApiPermissionPolicySchema.nullish(),
});
export type ApiToolConfig = z.infer<typeof ApiToolConfigSchema>;

const ApiDefaultConfigSchema = z.object({
  enabled: z.boolean().nullish(),
  permissionPolicy: ApiPermissionPolicySchema.nullish(),
});

const ApiToolsetSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['agent_toolset', 'agent_toolset_20260401']),
    defaultConfig: ApiDefaultConfigSchema.nullish(),
    configs: z.array(ApiToolConfigSchema).nullish(),
  }),
  z.object({
    type: z.literal('mcp_toolset'),
    mcpServerName: z.string().min(1),
    defaultConfig: ApiDefaultConfigSchema.nullish(),
    configs: z.array(ApiToolConfigSchema).nullish(),
  }),
  z.object({
    type: z.literal('custom'),
    name: z.string().min(1).max(128),
    description: z.string().min(1),
    inputSchema: z.looseObject({ type: z.literal('object') }),
  }),
]);
export type ApiToolset = z.infer<typeof ApiToolsetSchema>;

/** Only URL servers are supported; `enableTools` limits which of the server's tools are exposed. */
const ApiMcpServerSchema = z.object({
  name: z.string().min(1).max(255),
  url: z.url(),
  type: z.string().optional(),
  transport: z.enum(['http', 'sse', 'streamableHttp']).optional(),
  enableTools: z.array(z.string().min(1)).optional(),
});
export type ApiMcpServer = z.infer<typeof ApiMcpServerSchema>;

const ApiSkillRefSchema = z
  .object({
    type: z.enum(['anthropic', 'custom', 'workspace', 'marketplace']).default('custom'),
    skillId: z.string().min(1).optional(),
    id: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    version: z.string().nullish(),
  })
  .refine((s) => s.skillId ?? s.id ?? s.name, 'a skill needs skillId, id or name');
export type ApiSkillRef = z.infer<typeof ApiSkillRefSchema>;

/** Create (POST) and full update (PUT) body; omitted collections keep their previous value on PUT. */
export const ApiAgentRequestSchema = z.object({
  name: z.string().min(1, 'name required').max(256),
  description: z.string().max(2048).nullish(),
  system: z.string().max(100_000).nullish(),
  /** Legacy alias of `system`. */
  sysPrompt: z.string().max(100_000).nullish(),
  model: z.union([z.string().min(1), z.object({ id: z.string().min(1) })]).nullish(),
  maxIters: z.number().int().min(1).max(1000).nullish(),
  tools: z.array(ApiToolsetSchema).max(256).nullish(),
  mcpServers: z.array(ApiMcpServerSchema).max(20).nullish(),
  skills: z.array(ApiSkillRefSchema).nullish(),
  multiagent: z.record(z.string(), z.unknown()).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  /** On PUT: the version the client last saw; a stale one is a 409. */
  version: z.number().int().min(1).nullish(),
});
export type ApiAgentRequest = z.infer<typeof ApiAgentRequestSchema>;

export const ApiAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  system: z.string().nullable(),
  model: z.string(),
  maxIters: z.number().int().nullable(),
  tools: z.array(ApiToolsetSchema),
  mcpServers: z.array(z.object({ name: z.string(), url: z.string(), type: z.literal('url') })),
  skills: z.array(
    z.object({ type: z.enum(['anthropic', 'custom']), skillId: z.string(), version: z.string() }),
  ),
  multiagent: z.record(z.string(), z.unknown()).nullable(),
  metadata: z.record(z.string(), z.string()),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
});
export type ApiAgent = z.infer<typeof ApiAgentSchema>;
