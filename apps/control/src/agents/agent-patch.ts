import { isDeepStrictEqual } from 'node:util';
import {
  AppError,
  LIMITS,
  applyMetadataPatch,
  normalizeAgentTools,
  toModelConfig,
  type CreateAgentRequest,
  type McpServer,
  type UpdateAgentRequest,
} from '@agentry/contracts';
import type { AgentVersion } from '@agentry/db';
import type { AgentVersionData } from './agents.repository.js';

type Tools = NonNullable<CreateAgentRequest['tools']>;

/** The stored definition of a new agent. */
export function toVersionData(body: CreateAgentRequest): AgentVersionData {
  assertMcpServersReferenced(body.mcp_servers ?? [], body.tools ?? []);
  return {
    name: body.name,
    description: body.description ?? null,
    system: body.system ?? null,
    model: toModelConfig(body.model) as object,
    tools: normalizeAgentTools(body.tools ?? []) as object[],
    mcpServers: body.mcp_servers ?? [],
    skills: toSkills(body.skills),
    multiagent: body.multiagent ?? undefined,
    metadata: body.metadata ?? {},
    extras: { execution_identity: body.execution_identity ?? { type: 'service_account' } },
  };
}

/**
 * The definition after a partial update: an omitted field keeps its value, null clears it (lists
 * become empty, execution identity returns to the default). Only the MCP cross-reference is checked
 * against the merged result, since a patch may change servers and toolsets separately.
 */
export function applyAgentPatch(current: AgentVersion, patch: UpdateAgentRequest): AgentVersionData {
  const tools = patch.tools === undefined ? (current.tools as Tools) : (patch.tools ?? []);
  const servers =
    patch.mcp_servers === undefined ? (current.mcpServers as McpServer[]) : (patch.mcp_servers ?? []);
  assertMcpServersReferenced(servers, tools);
  const metadata = applyMetadataPatch(current.metadata as Record<string, string>, patch.metadata);
  if (Object.keys(metadata).length > LIMITS.metadataKeys) {
    throw new AppError(
      'INVALID_REQUEST',
      `metadata: would hold more than ${LIMITS.metadataKeys} keys after the patch`,
    );
  }
  const extras = current.extras as Record<string, object>;
  const data: AgentVersionData = {
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : patch.description || null,
    system: patch.system === undefined ? current.system : patch.system || null,
    model: patch.model === undefined ? (current.model as object) : (toModelConfig(patch.model) as object),
    tools: patch.tools === undefined ? (current.tools as object[]) : (normalizeAgentTools(tools) as object[]),
    mcpServers: servers,
    skills: patch.skills === undefined ? (current.skills as object[]) : toSkills(patch.skills ?? []),
    multiagent:
      patch.multiagent === undefined ? (current.multiagent ?? undefined) : (patch.multiagent ?? undefined),
    metadata,
    extras: {
      ...extras,
      execution_identity:
        patch.execution_identity === undefined
          ? extras.execution_identity
          : (patch.execution_identity ?? { type: 'service_account' }),
    },
  };
  // Drop undefined members so the comparison with stored JSON sees only real values.
  return JSON.parse(JSON.stringify(data)) as AgentVersionData;
}

/** True when `next` would store exactly what `current` holds (CMA: such an update makes no version). */
export function isSameDefinition(current: AgentVersion, next: AgentVersionData): boolean {
  const stored = {
    name: current.name,
    description: current.description,
    system: current.system,
    model: current.model,
    tools: current.tools,
    mcpServers: current.mcpServers,
    skills: current.skills,
    multiagent: current.multiagent ?? undefined,
    metadata: current.metadata,
    extras: current.extras,
  };
  return isDeepStrictEqual(JSON.parse(JSON.stringify(stored)), next);
}

function toSkills(skills: CreateAgentRequest['skills']): object[] {
  return (skills ?? []).map((s) => ({ type: s.type, skill_id: s.skill_id, version: s.version ?? 'latest' }));
}

/** CMA: every MCP server must be used by an mcp_toolset, and every toolset must name a declared server. */
function assertMcpServersReferenced(mcpServers: McpServer[], tools: Tools): void {
  const servers = new Set(mcpServers.map((s) => s.name));
  const used = new Set(tools.flatMap((t) => (t.type === 'mcp_toolset' ? [t.mcp_server_name] : [])));
  for (const name of used) {
    if (!servers.has(name))
      throw new AppError('INVALID_REQUEST', `tools: mcp_toolset names unknown MCP server "${name}"`);
  }
  for (const name of servers) {
    if (!used.has(name))
      throw new AppError(
        'INVALID_REQUEST',
        `mcp_servers: server "${name}" is not referenced by any mcp_toolset`,
      );
  }
}
