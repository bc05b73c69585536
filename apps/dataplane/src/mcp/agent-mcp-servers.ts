import type { SessionAgent } from '@agentry/contracts';

/** One of the agent's URL MCP servers, as the session connects to it. */
export interface AgentMcpServer {
  name: string;
  url: string;
  /** Tools the agent's `mcp_toolset` names and leaves enabled: offered even while the server cannot be reached. */
  namedTools: string[];
}

/** Tool names are `mcp__{server}__{tool}`, and model APIs accept only these characters in them. */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The servers a session connects to: those of `mcp_servers` that an `mcp_toolset` references with at least one
 * tool enabled. A toolset that disables everything needs no connection, since every call would be denied.
 */
export function agentMcpServers(agent: SessionAgent): {
  servers: AgentMcpServer[];
  skipped: Array<{ name: string; reason: string }>;
} {
  const servers: AgentMcpServer[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  // Specs stored before agents had MCP servers lack the field.
  for (const server of agent.mcp_servers ?? []) {
    const toolsets = agent.tools.filter((t) => t.type === 'mcp_toolset' && t.mcp_server_name === server.name);
    const namedTools = new Set<string>();
    let enabled = false;
    for (const toolset of toolsets) {
      if (toolset.type !== 'mcp_toolset') continue;
      enabled ||= toolset.default_config.enabled || toolset.configs.some((c) => c.enabled);
      for (const config of toolset.configs) if (config.enabled) namedTools.add(config.name);
    }
    if (!enabled) continue;
    if (!SERVER_NAME.test(server.name)) {
      skipped.push({
        name: server.name,
        reason: 'MCP server names must be letters, digits, "_" or "-" to name tools',
      });
      continue;
    }
    servers.push({ name: server.name, url: server.url, namedTools: [...namedTools] });
  }
  return { servers, skipped };
}
