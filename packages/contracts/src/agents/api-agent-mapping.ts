import type {
  AgentToolConfigParams,
  AgentToolParams,
  McpToolsetParams,
  PermissionPolicy,
} from './agent-tools.js';
import type { Agent, CreateAgentRequest, UpdateAgentRequest } from './agents.js';
import type { MultiagentParams } from './multiagent.js';
import type {
  ApiAgent,
  ApiAgentRequest,
  ApiMcpServer,
  ApiPermissionPolicy,
  ApiSkillRef,
  ApiToolConfig,
  ApiToolset,
} from './api-agents.js';
import { API_TEAM_TOOLS_METADATA_KEY, enabledTeamTools, teamToolsOf } from './api-team-tools.js';
import { toAgentToolName } from './api-tool-names.js';

/** `maxIters` has no CMA field; it travels in metadata under this key. */
export const MAX_ITERS_METADATA_KEY = 'agentry.max_iters';
/**
 * The toolset is stored under CMA names; the AgentScope names a client wrote (`read_file`, `execute`…)
 * travel in metadata under this key (`read=read_file,bash=execute`) so `/api` reads back what was written.
 */
export const API_TOOL_NAMES_METADATA_KEY = 'agentry.api_tool_names';

/** CMA name → the name the client wrote, for the toolset configs whose names differ. */
function writtenToolNames(tools: readonly ApiToolset[]): string | undefined {
  const written = new Map<string, string>();
  for (const tool of tools) {
    if (tool.type === 'custom' || tool.type === 'mcp_toolset') continue;
    for (const config of tool.configs ?? []) {
      const name = toAgentToolName(config.name);
      if (name && !written.has(name)) written.set(name, config.name);
    }
  }
  const aliases = [...written].filter(([name, as]) => name !== as);
  return aliases.length > 0 ? aliases.map(([name, as]) => `${name}=${as}`).join(',') : undefined;
}

function readWrittenToolNames(value: string | undefined): Map<string, string> {
  return new Map(
    (value ?? '').split(',').flatMap((pair) => {
      const [name, as] = pair.split('=');
      return name && as ? [[name, as] as const] : [];
    }),
  );
}

interface MappedConfig {
  enabled?: boolean | null;
  permission_policy?: PermissionPolicy | null;
}

/** `deny` becomes a disabled tool: CMA has no deny policy. */
function mapConfig(
  enabled: boolean | null | undefined,
  policy: ApiPermissionPolicy | null | undefined,
): MappedConfig {
  const out: MappedConfig = {};
  if (policy?.type === 'deny') {
    out.enabled = false;
    return out;
  }
  if (enabled !== undefined && enabled !== null) out.enabled = enabled;
  if (policy) out.permission_policy = { type: policy.type };
  return out;
}

function mapAgentToolConfigs(configs: readonly ApiToolConfig[]): AgentToolConfigParams[] {
  const byName = new Map<string, AgentToolConfigParams>();
  for (const c of configs) {
    const name = toAgentToolName(c.name);
    if (!name || byName.has(name)) continue;
    byName.set(name, { name, ...mapConfig(c.enabled, c.permissionPolicy) });
  }
  return [...byName.values()];
}

function mapTools(tools: readonly ApiToolset[], servers: readonly ApiMcpServer[]): AgentToolParams[] {
  const out: AgentToolParams[] = tools.map((t): AgentToolParams => {
    if (t.type === 'custom')
      return { type: 'custom', name: t.name, description: t.description, input_schema: t.inputSchema };
    const default_config = t.defaultConfig
      ? mapConfig(t.defaultConfig.enabled, t.defaultConfig.permissionPolicy)
      : undefined;
    if (t.type === 'mcp_toolset') {
      const mcp: McpToolsetParams = { type: 'mcp_toolset', mcp_server_name: t.mcpServerName };
      if (default_config) mcp.default_config = default_config;
      if (t.configs)
        mcp.configs = t.configs.map((c) => ({ name: c.name, ...mapConfig(c.enabled, c.permissionPolicy) }));
      return mcp;
    }
    const toolset: AgentToolParams = { type: 'agent_toolset_20260401' };
    if (default_config) toolset.default_config = default_config;
    if (t.configs) toolset.configs = mapAgentToolConfigs(t.configs);
    return toolset;
  });
  // CMA requires every MCP server to be referenced by a toolset; `enableTools` becomes an allow-list.
  for (const server of servers) {
    if (out.some((t) => t.type === 'mcp_toolset' && t.mcp_server_name === server.name)) continue;
    const toolset: McpToolsetParams = { type: 'mcp_toolset', mcp_server_name: server.name };
    if (server.enableTools) {
      toolset.default_config = { enabled: false };
      toolset.configs = server.enableTools.map((name) => ({ name, enabled: true }));
    }
    out.push(toolset);
  }
  return out;
}

function mapSkill(s: ApiSkillRef) {
  const skill_id = s.skillId ?? s.id ?? s.name ?? '';
  return {
    type: s.type === 'anthropic' ? ('anthropic' as const) : ('custom' as const),
    skill_id,
    version: s.version ?? null,
  };
}

function mapCommon(req: ApiAgentRequest) {
  const servers = req.mcpServers ?? [];
  const metadata: Record<string, string> = { ...(req.metadata ?? {}) };
  if (req.maxIters) metadata[MAX_ITERS_METADATA_KEY] = String(req.maxIters);
  const toolNames = req.tools ? writtenToolNames(req.tools) : undefined;
  if (toolNames) metadata[API_TOOL_NAMES_METADATA_KEY] = toolNames;
  const teamTools = req.tools ? enabledTeamTools(req.tools) : [];
  if (teamTools.length > 0) metadata[API_TEAM_TOOLS_METADATA_KEY] = teamTools.join(',');
  return {
    system: req.system ?? req.sysPrompt,
    tools: req.tools || req.mcpServers ? mapTools(req.tools ?? [], servers) : undefined,
    mcp_servers: req.mcpServers
      ? servers.map((s) => ({ type: 'url' as const, name: s.name, url: s.url }))
      : undefined,
    skills: req.skills ? req.skills.map(mapSkill) : undefined,
    // Free JSON on /api; the caller validates the mapped request with the /v1 schema.
    multiagent: req.multiagent ? (req.multiagent as MultiagentParams) : undefined,
    metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
  };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Maps an `/api` create body to the `/v1` create request. The `/api` surface lets `model` be omitted,
 * so the caller supplies the platform default. Validate the result with `CreateAgentRequestSchema`.
 */
export function apiAgentToV1(req: ApiAgentRequest, options: { defaultModel: string }): CreateAgentRequest {
  const model = typeof req.model === 'string' ? req.model : (req.model?.id ?? options.defaultModel);
  return dropUndefined({ name: req.name, model, description: req.description, ...mapCommon(req) });
}

/** Maps an `/api` PUT body to a `/v1` partial update: omitted collections keep their value. */
export function apiAgentUpdateToV1(req: ApiAgentRequest): UpdateAgentRequest {
  const common = mapCommon(req);
  const model = typeof req.model === 'string' ? req.model : req.model?.id;
  return dropUndefined({
    version: req.version ?? undefined,
    name: req.name,
    model,
    description: req.description,
    ...common,
    // On /api metadata is replaced as a whole; here it is sent as a patch of upserts. New tools without
    // AgentScope names (or team tools) drop what was recorded for the old ones.
    metadata: req.tools ? { ...common.metadata, ...droppedToolMetadata(common.metadata) } : common.metadata,
  });
}

/** The tool metadata keys a new tool list no longer sets, as removals. */
function droppedToolMetadata(metadata: Record<string, string> | undefined): Record<string, null> {
  const dropped: Record<string, null> = {};
  for (const key of [API_TOOL_NAMES_METADATA_KEY, API_TEAM_TOOLS_METADATA_KEY])
    if (!metadata?.[key]) dropped[key] = null;
  return dropped;
}

function policyOut(policy: PermissionPolicy): ApiPermissionPolicy {
  return { type: policy.type };
}

/** Maps a stored `/v1` agent to the `/api` shape. */
export function v1AgentToApi(agent: Agent): ApiAgent {
  const {
    [MAX_ITERS_METADATA_KEY]: maxIters,
    [API_TOOL_NAMES_METADATA_KEY]: toolNames,
    [API_TEAM_TOOLS_METADATA_KEY]: teamTools,
    ...metadata
  } = agent.metadata;
  const written = readWrittenToolNames(toolNames);
  const team = teamToolsOf({ [API_TEAM_TOOLS_METADATA_KEY]: teamTools });
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    system: agent.system,
    model: agent.model.id,
    maxIters: maxIters ? Number(maxIters) : null,
    // `/api` has no memory toolset: an agent with one shows it on `/v1` only.
    tools: agent.tools.flatMap((t): ApiToolset | [] => {
      if (t.type === 'memory_toolset_20261030') return [];
      if (t.type === 'custom')
        return { type: 'custom', name: t.name, description: t.description, inputSchema: t.input_schema };
      const defaultConfig = {
        enabled: t.default_config.enabled,
        permissionPolicy: policyOut(t.default_config.permission_policy),
      };
      const configs = t.configs.map((c) => ({
        name: c.name,
        enabled: c.enabled,
        permissionPolicy: policyOut(c.permission_policy),
      }));
      if (t.type === 'mcp_toolset')
        return { type: 'mcp_toolset', mcpServerName: t.mcp_server_name, defaultConfig, configs };
      // The team tools the client enabled read back as configs of the toolset they were written in.
      const teamConfigs = team.map((name) => ({
        name,
        enabled: true,
        permissionPolicy: defaultConfig.permissionPolicy,
      }));
      return {
        type: 'agent_toolset',
        defaultConfig,
        configs: [...configs.map((c) => ({ ...c, name: written.get(c.name) ?? c.name })), ...teamConfigs],
      };
    }),
    mcpServers: agent.mcp_servers.map((s) => ({ name: s.name, url: s.url, type: 'url' })),
    skills: agent.skills.map((s) => ({ type: s.type, skillId: s.skill_id, version: s.version })),
    multiagent: agent.multiagent ? { ...agent.multiagent } : null,
    metadata,
    version: agent.version,
    createdAt: agent.created_at,
    updatedAt: agent.updated_at,
    archivedAt: agent.archived_at,
  };
}
