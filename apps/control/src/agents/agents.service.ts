import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  normalizeAgentTools,
  toModelConfig,
  type Actor,
  type Agent,
  type CreateAgentRequest,
  type ListParams,
  type Page,
} from '@agentry/contracts';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';
import { assertCanWrite } from '../common/access.js';
import { toAgentDto } from './agent.mapper.js';
import { AgentsRepository, type AgentWithVersion } from './agents.repository.js';

@Injectable()
export class AgentsService {
  constructor(private readonly agents: AgentsRepository) {}

  async create(actor: Actor, body: CreateAgentRequest): Promise<Agent> {
    assertCanWrite(actor);
    assertMcpServersReferenced(body);
    const row = await this.agents.create(
      actor,
      newId(ID_PREFIXES.agent),
      {
        name: body.name,
        description: body.description ?? null,
        system: body.system ?? null,
        model: toModelConfig(body.model) as object,
        tools: normalizeAgentTools(body.tools ?? []) as object[],
        mcpServers: body.mcp_servers ?? [],
        skills: (body.skills ?? []).map((s) => ({ type: s.type, skill_id: s.skill_id, version: s.version ?? 'latest' })),
        multiagent: body.multiagent ?? undefined,
        metadata: body.metadata ?? {},
        extras: { execution_identity: body.execution_identity ?? { type: 'service_account' } },
      },
    );
    return toAgentDto(row);
  }

  async get(actor: Actor, id: string, version?: number): Promise<Agent> {
    return toAgentDto(await this.require(actor, id, version));
  }

  async require(actor: Actor, id: string, version?: number): Promise<AgentWithVersion> {
    const row = await this.agents.find(actor, id, version);
    if (!row) {
      throw new AppError('NOT_FOUND', version ? `Agent ${id} has no version ${version}` : `Agent ${id} not found`);
    }
    return row;
  }

  async list(actor: Actor, query: ListParams): Promise<Page<Agent>> {
    const rows = await this.agents.list(actor, {
      limit: query.limit + 1,
      afterId: decodeCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      data: page.map(toAgentDto),
      next_page: rows.length > query.limit && last ? encodeCursor(last.agent.id) : null,
    };
  }
}

/** CMA: every MCP server must be used by an mcp_toolset, and every toolset must name a declared server. */
function assertMcpServersReferenced(body: CreateAgentRequest): void {
  const servers = new Set((body.mcp_servers ?? []).map((s) => s.name));
  const used = new Set((body.tools ?? []).flatMap((t) => (t.type === 'mcp_toolset' ? [t.mcp_server_name] : [])));
  for (const name of used) {
    if (!servers.has(name)) throw new AppError('INVALID_REQUEST', `tools: mcp_toolset names unknown MCP server "${name}"`);
  }
  for (const name of servers) {
    if (!used.has(name)) throw new AppError('INVALID_REQUEST', `mcp_servers: server "${name}" is not referenced by any mcp_toolset`);
  }
}
