import type { ApiToolset } from './api-agents.js';

/**
 * The Team Lead tools of an AgentScope agent team. CMA's toolset has no such names, so an `/api` agent
 * that enables them keeps the list in metadata under this key (`sessions_spawn,wait_async_results`), where
 * the runtime reads it and `/api` reads it back as toolset configs.
 */
export const API_TEAM_TOOLS_METADATA_KEY = 'agentry.team_tools';
const TEAM_TOOL_NAMES = [
  'sessions_spawn',
  'sessions_list',
  'sessions_pending_completions',
  'wait_async_results',
] as const;
export type TeamToolName = (typeof TEAM_TOOL_NAMES)[number];

function isTeamToolName(name: string): name is TeamToolName {
  return (TEAM_TOOL_NAMES as readonly string[]).includes(name);
}

/** The team tools an `/api` toolset enables: listed with `enabled` not false (or the toolset default) and not denied. */
export function enabledTeamTools(tools: readonly ApiToolset[]): TeamToolName[] {
  const enabled = new Set<TeamToolName>();
  for (const tool of tools) {
    if (tool.type !== 'agent_toolset' && tool.type !== 'agent_toolset_20260401') continue;
    for (const config of tool.configs ?? []) {
      if (!isTeamToolName(config.name)) continue;
      const on = config.enabled ?? tool.defaultConfig?.enabled ?? true;
      const policy = config.permissionPolicy ?? tool.defaultConfig?.permissionPolicy;
      if (on && policy?.type !== 'deny') enabled.add(config.name);
    }
  }
  return TEAM_TOOL_NAMES.filter((name) => enabled.has(name));
}

/** The team tools recorded in an agent's metadata. */
export function teamToolsOf(metadata: Record<string, string | null | undefined>): TeamToolName[] {
  const listed = (metadata[API_TEAM_TOOLS_METADATA_KEY] ?? '').split(',');
  return TEAM_TOOL_NAMES.filter((name) => listed.includes(name));
}
