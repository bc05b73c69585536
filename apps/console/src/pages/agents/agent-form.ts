/** The agent form's fields, and how they map to and from the `/v1` agent body. */

/** The built-in tools of `agent_toolset_20260401`, in the order the form lists them. */
export const BUILTIN_TOOLS = [
  'bash',
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'web_fetch',
  'web_search',
] as const;
export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

/** One tool's choice: the toolset's default, a policy of its own, or switched off. */
export type ToolChoice = 'default' | 'always_allow' | 'always_ask' | 'disabled';

type ToolConfig = Record<string, unknown> & { name: string };

/** One entry of an agent's `tools`: the built-in toolset, an MCP toolset or a custom tool. */
type AgentTool = Record<string, unknown> & {
  type?: string;
  default_config?: { permission_policy?: { type?: string } };
  configs?: ToolConfig[];
};

/** The fields of a `/v1` agent the console reads. */
export interface AgentBody {
  id?: string;
  version?: number;
  name?: string;
  model?: string | { id?: string; script?: unknown };
  system?: string;
  tools?: AgentTool[];
  mcp_servers?: unknown[];
  skills?: unknown[];
  multiagent?: unknown;
  archived_at?: string | null;
}

export interface AgentFormValues {
  name: string;
  model: string;
  system: string;
  /** The toolset's default policy, for every tool left at "default". */
  permission: 'always_allow' | 'always_ask';
  tools: Record<BuiltinTool, ToolChoice>;
  /** The toolset's per-tool configs as loaded, so fields the form does not show (domains, limits) survive. */
  loadedConfigs: ToolConfig[];
  /** Every tool that is not the built-in toolset (MCP toolsets, custom tools), as JSON. */
  otherTools: string;
  mcpServers: string;
  skills: string;
  subAgents: string;
  script: string;
}

const allDefault = () =>
  Object.fromEntries(BUILTIN_TOOLS.map((tool) => [tool, 'default'])) as Record<BuiltinTool, ToolChoice>;

export const EMPTY_AGENT: AgentFormValues = {
  name: '',
  model: 'scripted',
  system: '',
  permission: 'always_allow',
  tools: allDefault(),
  loadedConfigs: [],
  otherTools: '[]',
  mcpServers: '[]',
  skills: '[]',
  subAgents: '',
  script: '',
};

const TOOLSET = 'agent_toolset_20260401';
const pretty = (value: unknown) => JSON.stringify(value ?? [], null, 2);

function choiceOf(config: ToolConfig | undefined): ToolChoice {
  if (!config) return 'default';
  if (config.enabled === false) return 'disabled';
  const policy = (config.permission_policy as { type?: string } | null | undefined)?.type;
  return policy === 'always_allow' || policy === 'always_ask' ? policy : 'default';
}

export function formOfAgent(agent: AgentBody): AgentFormValues {
  const tools = agent.tools ?? [];
  const toolset = tools.find((t) => t.type === TOOLSET);
  const configs = toolset?.configs ?? [];
  const model = typeof agent.model === 'string' ? { id: agent.model } : (agent.model ?? {});
  return {
    name: agent.name ?? '',
    model: model.id ?? '',
    system: agent.system ?? '',
    permission:
      toolset?.default_config?.permission_policy?.type === 'always_ask' ? 'always_ask' : 'always_allow',
    tools: Object.fromEntries(
      BUILTIN_TOOLS.map((tool) => [tool, choiceOf(configs.find((c) => c.name === tool))]),
    ) as Record<BuiltinTool, ToolChoice>,
    loadedConfigs: configs,
    otherTools: pretty(tools.filter((t) => t.type !== TOOLSET)),
    mcpServers: pretty(agent.mcp_servers),
    skills: pretty(agent.skills),
    subAgents: agent.multiagent ? JSON.stringify(agent.multiagent, null, 2) : '',
    script: model.script ? JSON.stringify(model.script, null, 2) : '',
  };
}

/** One tool's config entry for its choice, keeping the fields the form does not edit; none when empty. */
function configFor(tool: BuiltinTool, choice: ToolChoice, loaded: ToolConfig | undefined): ToolConfig[] {
  const { enabled: _enabled, permission_policy: _policy, ...kept } = loaded ?? { name: tool };
  const config: ToolConfig = { ...kept, name: tool };
  if (choice === 'disabled') config.enabled = false;
  if (choice === 'always_allow' || choice === 'always_ask') config.permission_policy = { type: choice };
  return Object.keys(config).length > 1 ? [config] : [];
}

const isArray = (value: unknown): value is unknown[] => Array.isArray(value);

const rank = (names: string[], tool: string) => {
  const index = names.indexOf(tool);
  return index === -1 ? names.length + BUILTIN_TOOLS.indexOf(tool as BuiltinTool) : index;
};

/** The body to send; a field that is not valid JSON is named in the error. */
export function agentBodyOf(values: AgentFormValues): Record<string, unknown> {
  const json = (label: string, text: string): unknown => {
    try {
      return JSON.parse(text || '[]');
    } catch {
      throw new Error(`${label} is not valid JSON`);
    }
  };
  const otherTools = json('Other tools', values.otherTools);
  if (!isArray(otherTools)) throw new Error('Other tools must be a JSON array');
  const script = values.script.trim() ? json('Model script', values.script) : undefined;
  // Tools keep the order they were loaded in, so saving an untouched agent sends what it holds.
  const loadedNames = values.loadedConfigs.map((c) => c.name);
  const order = [...BUILTIN_TOOLS].sort((a, b) => rank(loadedNames, a) - rank(loadedNames, b));
  const configs = order.flatMap((tool) =>
    configFor(
      tool,
      values.tools[tool],
      values.loadedConfigs.find((c) => c.name === tool),
    ),
  );
  return {
    name: values.name,
    model: script ? { id: values.model, script } : values.model,
    system: values.system,
    tools: [
      { type: TOOLSET, default_config: { permission_policy: { type: values.permission } }, configs },
      ...otherTools,
    ],
    mcp_servers: json('MCP servers', values.mcpServers),
    skills: json('Skills', values.skills),
    ...(values.subAgents.trim() ? { multiagent: json('Sub-agents', values.subAgents) } : {}),
  };
}
