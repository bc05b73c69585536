import { ModelParamsSchema, toModelConfig, type SessionAgent } from '@agentry/contracts';

/** An inline agent as a thread shows it (CMA `BetaManagedAgentsInlineAgent`). */
export interface ShownInlineAgent {
  type: 'inline';
  name: string;
  description: string | null;
  system: string | null;
  model: SessionAgent['model'];
  tools: SessionAgent['tools'];
  mcp_servers: SessionAgent['mcp_servers'];
  skills: SessionAgent['skills'];
  execution_identity: SessionAgent['execution_identity'];
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;
const SYSTEM_MAX = 100_000;

/**
 * Whether the primary may define inline agents: `multiagent_20261001` with subagents and their inline
 * agents enabled; both default to enabled when left out or sent as null.
 */
export function inlineAgentsEnabled(multiagent: SessionAgent['multiagent']): boolean {
  const config = multiagent as {
    type: string;
    subagents?: { type: string; inline_agents?: { type: string } | null } | null;
  } | null;
  if (config?.type !== 'multiagent_20261001') return false;
  if (config.subagents && config.subagents.type !== 'enabled') return false;
  return !config.subagents?.inline_agents || config.subagents.inline_agents.type === 'enabled';
}

/** Whether the agent may start workflow runs, and whether their plans may define inline agents (both default on). */
export function workflowsOf(multiagent: SessionAgent['multiagent']): { enabled: boolean; inline: boolean } {
  const config = multiagent as {
    type: string;
    workflows?: { type: string; inline_agents?: { type: string } | null } | null;
  } | null;
  if (config?.type !== 'multiagent_20261001') return { enabled: false, inline: false };
  if (config.workflows && config.workflows.type !== 'enabled') return { enabled: false, inline: false };
  return {
    enabled: true,
    inline: !config.workflows?.inline_agents || config.workflows.inline_agents.type === 'enabled',
  };
}

/**
 * The inline agent a definition describes: the session's tools, MCP servers, skills and execution identity
 * (a thread works with what the session has), its own name, instructions and, when given, model. The run
 * spec keeps the primary's id and version, which the thread's session row is charged to.
 */
export function defineInlineAgent(
  primary: SessionAgent,
  name: string,
  definition: unknown,
): { run: SessionAgent; shown: ShownInlineAgent } | Error {
  if (!NAME_PATTERN.test(name))
    return new Error(
      'An inline agent name is 1 to 64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.',
    );
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition))
    return new Error('inline_agent must be an object with at least `system`.');
  const { system, description, model } = definition as Record<string, unknown>;
  if (typeof system !== 'string' || system.trim() === '' || system.length > SYSTEM_MAX)
    return new Error(`inline_agent.system must be a non-empty string of at most ${SYSTEM_MAX} characters.`);
  if (description !== undefined && description !== null && typeof description !== 'string')
    return new Error('inline_agent.description must be a string.');
  let modelConfig = primary.model;
  if (model !== undefined && model !== null) {
    const parsed = ModelParamsSchema.safeParse(model);
    if (!parsed.success)
      return new Error('inline_agent.model must be a model id or a model config object with `id`.');
    modelConfig = toModelConfig(parsed.data);
  }
  const shown: ShownInlineAgent = {
    type: 'inline',
    name,
    description: typeof description === 'string' ? description : null,
    system,
    model: modelConfig,
    tools: primary.tools,
    mcp_servers: primary.mcp_servers,
    skills: primary.skills,
    execution_identity: primary.execution_identity,
  };
  const run: SessionAgent = {
    ...primary,
    name,
    description: shown.description,
    system,
    model: modelConfig,
    multiagent: null,
  };
  return { run, shown };
}
