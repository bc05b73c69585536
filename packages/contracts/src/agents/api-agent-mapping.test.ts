import { describe, expect, it } from 'vitest';
import { normalizeAgentTools } from './agent-tool-defaults.js';
import { AgentSchema, CreateAgentRequestSchema, type Agent } from './agents.js';
import { apiAgentToV1, v1AgentToApi } from './api-agent-mapping.js';
import { ApiAgentRequestSchema, type ApiAgent } from './api-agents.js';

const at = '2026-12-01T00:00:00.000Z';

/** What control stores for a validated create request (defaults filled, tools normalized). */
function store(body: unknown): Agent {
  const request = CreateAgentRequestSchema.parse(body);
  return AgentSchema.parse({
    type: 'agent',
    id: 'agent_roundtrip',
    version: 1,
    name: request.name,
    description: request.description ?? null,
    system: request.system ?? null,
    model: typeof request.model === 'string' ? { id: request.model } : request.model,
    tools: normalizeAgentTools(request.tools ?? []),
    mcp_servers: request.mcp_servers ?? [],
    skills: request.skills ?? [],
    multiagent: null,
    execution_identity: { type: 'service_account' },
    metadata: request.metadata ?? {},
    created_at: at,
    updated_at: at,
    archived_at: null,
  });
}

/** The writable part of an `/api` agent: what a client sends back after reading one. */
function asRequest(agent: ApiAgent): unknown {
  const { name, description, system, model, maxIters, tools, mcpServers, skills, metadata } = agent;
  return { name, description, system, model, maxIters, tools, mcpServers, skills, metadata };
}

describe('/api agent mapping round trips', () => {
  it('/api → /v1 → /api reads back what the client wrote', () => {
    const written = {
      name: 'researcher',
      description: 'reads and searches',
      system: 'Be brief.',
      model: 'claude-sonnet-5',
      maxIters: 12,
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: false, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'read_file', enabled: true, permissionPolicy: { type: 'always_ask' } },
            { name: 'execute', enabled: true, permissionPolicy: { type: 'always_allow' } },
          ],
        },
        {
          type: 'mcp_toolset',
          mcpServerName: 'docs',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_ask' } },
          configs: [],
        },
        { type: 'custom', name: 'lookup', description: 'Looks a word up', inputSchema: { type: 'object' } },
      ],
      mcpServers: [{ name: 'docs', url: 'https://mcp.example.com/docs', type: 'url' }],
      skills: [{ type: 'custom', skillId: 'skill_1', version: '3' }],
      metadata: { team: 'search' },
    };
    const stored = store(apiAgentToV1(ApiAgentRequestSchema.parse(written), { defaultModel: 'unused' }));
    expect(asRequest(v1AgentToApi(stored))).toEqual(written);
  });

  it('/v1 → /api → /v1 keeps the stored agent', () => {
    const stored = store({
      name: 'coder',
      description: 'edits code',
      system: 'Run the tests.',
      model: 'claude-opus-5',
      tools: [
        {
          type: 'agent_toolset_20260401',
          default_config: { enabled: true, permission_policy: { type: 'always_ask' } },
          configs: [{ name: 'bash', enabled: false, permission_policy: { type: 'always_ask' } }],
        },
        { type: 'mcp_toolset', mcp_server_name: 'tracker' },
      ],
      mcp_servers: [{ type: 'url', name: 'tracker', url: 'https://mcp.example.com/tracker' }],
      skills: [{ type: 'anthropic', skill_id: 'xlsx', version: 'latest' }],
      metadata: { owner: 'platform' },
    });
    const api = ApiAgentRequestSchema.parse(asRequest(v1AgentToApi(stored)));
    expect(store(apiAgentToV1(api, { defaultModel: 'unused' }))).toEqual(stored);
  });
});
