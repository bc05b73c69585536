import type { Agent as AgentDto, AgentSnapshot } from '@agentry/contracts';
import type { AgentWithVersion } from './agents.repository.js';

/** The pinned definition of one version, as sessions embed it. */
export function toAgentSnapshot({ agent, version }: AgentWithVersion): AgentSnapshot {
  return {
    type: 'agent',
    id: agent.id,
    version: version.version,
    name: version.name,
    description: version.description,
    system: version.system,
    model: version.model as AgentSnapshot['model'],
    tools: version.tools as AgentSnapshot['tools'],
    mcp_servers: version.mcpServers as AgentSnapshot['mcp_servers'],
    skills: version.skills as AgentSnapshot['skills'],
    multiagent: (version.multiagent ?? null) as AgentSnapshot['multiagent'],
    execution_identity: ((version.extras as Record<string, unknown>).execution_identity ?? {
      type: 'service_account',
    }) as AgentSnapshot['execution_identity'],
  };
}

export function toAgentDto(row: AgentWithVersion): AgentDto {
  return {
    ...toAgentSnapshot(row),
    metadata: row.version.metadata as AgentDto['metadata'],
    created_at: row.agent.createdAt.toISOString(),
    updated_at: row.version.createdAt.toISOString(),
    archived_at: row.agent.archivedAt?.toISOString() ?? null,
  };
}
