import type { Agent, AgentShare, AgentVersion } from '@agentry/db';

/**
 * An agent, one of its versions (the head unless `$3` names one) and the caller's share of it, in one
 * prepared statement. Columns come back as the ORM's row types, so the access policy and the mappers
 * see the same shapes whichever path read them.
 */
export const AGENT_WITH_VERSION_SQL = `
SELECT a.id, a.tenant_id, a.namespace_id, a.name, a.description, a.head_version, a.metadata, a.created_by_id,
       a.created_at, a.updated_at, a.archived_at,
       row_to_json(v) AS version,
       row_to_json(s) AS share
  FROM agents a
  LEFT JOIN agent_versions v ON v.agent_id = a.id AND v.version = COALESCE($3::int, a.head_version)
  LEFT JOIN agent_shares s ON s.agent_id = a.id AND s.grantee_user_id = $4
 WHERE a.id = $1 AND a.tenant_id = $2`;

export interface AgentWithVersionRow {
  id: string;
  tenant_id: string;
  namespace_id: string;
  name: string;
  description: string | null;
  head_version: number;
  metadata: unknown;
  created_by_id: string | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  version: Record<string, unknown> | null;
  share: Record<string, unknown> | null;
}

export function agentOf(row: AgentWithVersionRow): Agent {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    namespaceId: row.namespace_id,
    name: row.name,
    description: row.description,
    headVersion: row.head_version,
    metadata: row.metadata as Agent['metadata'],
    createdById: row.created_by_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at,
  };
}

/** `row_to_json` gives snake_case keys and ISO timestamps. */
export function versionOf(json: Record<string, unknown>): AgentVersion {
  return {
    id: json.id as string,
    tenantId: json.tenant_id as string,
    agentId: json.agent_id as string,
    version: json.version as number,
    name: json.name as string,
    description: (json.description ?? null) as string | null,
    system: (json.system ?? null) as string | null,
    model: json.model as AgentVersion['model'],
    tools: json.tools as AgentVersion['tools'],
    mcpServers: json.mcp_servers as AgentVersion['mcpServers'],
    skills: json.skills as AgentVersion['skills'],
    multiagent: json.multiagent ?? null,
    metadata: json.metadata as AgentVersion['metadata'],
    extras: json.extras as AgentVersion['extras'],
    createdAt: new Date(json.created_at as string),
  };
}

export function shareOf(json: Record<string, unknown>): AgentShare {
  return {
    id: json.id as string,
    tenantId: json.tenant_id as string,
    agentId: json.agent_id as string,
    granteeUserId: json.grantee_user_id as string,
    permission: json.permission as string,
    createdAt: new Date(json.created_at as string),
  };
}
