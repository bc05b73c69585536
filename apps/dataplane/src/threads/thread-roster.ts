import { Injectable } from '@nestjs/common';
import { teamToolsOf, type SessionAgent, type TeamToolName } from '@agentry/contracts';
import { SqlPool } from '../sql/sql-pool.js';

type RosterEntry =
  | string
  | { type: 'agent'; id: string; version?: number }
  | { type: 'self' }
  | { type: 'advisor'; model: string };

interface VersionRow {
  id: string;
  version: number;
  name: string;
  description: string | null;
  system: string | null;
  model: SessionAgent['model'];
  tools: SessionAgent['tools'];
  mcp_servers: SessionAgent['mcp_servers'];
  skills: SessionAgent['skills'];
  extras: Record<string, unknown>;
}

/** The roster entries a `multiagent` config names: the legacy coordinator's, or the enabled predefined subagents. */
function rosterEntries(multiagent: SessionAgent['multiagent']): RosterEntry[] {
  const config = multiagent as {
    type: string;
    agents?: RosterEntry[];
    subagents?: { type: string; predefined_agents?: RosterEntry[] | null } | null;
  } | null;
  if (!config) return [];
  if (config.type === 'coordinator') return config.agents ?? [];
  if (config.subagents?.type === 'enabled') return config.subagents.predefined_agents ?? [];
  return [];
}

/**
 * The agents a session's primary agent may delegate to, each pinned to a version as the thread is
 * created: the version the roster names, or the latest one. Subagents never delegate further (depth one).
 */
@Injectable()
export class ThreadRoster {
  constructor(private readonly sql: SqlPool) {}

  async callable(tenantId: string, primary: SessionAgent): Promise<SessionAgent[]> {
    return this.resolve(tenantId, primary, rosterEntries(primary.multiagent));
  }

  /** The predefined agents a workflow run's plan may use (`workflows.predefined_agents`, its own list). */
  async forWorkflows(tenantId: string, primary: SessionAgent): Promise<SessionAgent[]> {
    const config = primary.multiagent as { workflows?: { predefined_agents?: RosterEntry[] | null } | null };
    return this.resolve(tenantId, primary, config.workflows?.predefined_agents ?? []);
  }

  private async resolve(
    tenantId: string,
    primary: SessionAgent,
    entries: RosterEntry[],
  ): Promise<SessionAgent[]> {
    const agents: SessionAgent[] = [];
    for (const entry of entries) {
      if (typeof entry !== 'string' && entry.type === 'advisor') continue;
      if (typeof entry !== 'string' && entry.type === 'self') {
        agents.push({ ...primary, multiagent: null });
        continue;
      }
      const found =
        typeof entry === 'string'
          ? await this.pinned(tenantId, entry, undefined)
          : await this.pinned(tenantId, entry.id, entry.version);
      if (found) agents.push(found);
    }
    return agents;
  }

  /** The Team Lead tools the agent's version enables (an `/api` toolset lists them; see API_TEAM_TOOLS_METADATA_KEY). */
  async teamTools(tenantId: string, agent: SessionAgent): Promise<TeamToolName[]> {
    const rows = await this.sql.query<{ metadata: Record<string, string> }>(
      'threads.team-tools',
      'SELECT metadata FROM agent_versions WHERE agent_id = $1 AND version = $2 AND tenant_id = $3',
      [agent.id, agent.version, tenantId],
    );
    return teamToolsOf(rows.rows[0]?.metadata ?? {});
  }

  private async pinned(
    tenantId: string,
    agentId: string,
    version: number | undefined,
  ): Promise<SessionAgent | null> {
    const rows = await this.sql.query<VersionRow>(
      'threads.roster-version',
      `SELECT a.id, v.version, v.name, v.description, v.system, v.model, v.tools, v.mcp_servers, v.skills, v.extras
       FROM agents a JOIN agent_versions v ON v.agent_id = a.id AND v.version = coalesce($3::int, a.head_version)
       WHERE a.id = $1 AND a.tenant_id = $2 AND a.archived_at IS NULL`,
      [agentId, tenantId, version ?? null],
    );
    const row = rows.rows[0];
    if (!row) return null;
    return {
      type: 'agent',
      id: row.id,
      version: row.version,
      name: row.name,
      description: row.description,
      system: row.system,
      model: row.model,
      tools: row.tools,
      mcp_servers: row.mcp_servers,
      skills: row.skills,
      multiagent: null,
      execution_identity: (row.extras.execution_identity ?? {
        type: 'service_account',
      }) as SessionAgent['execution_identity'],
    };
  }
}
