import { describe, expect, it } from 'vitest';
import { ApiAgentRequestSchema } from '../agents/api-agents.js';
import {
  API_TOOL_NAMES_METADATA_KEY,
  MAX_ITERS_METADATA_KEY,
  apiAgentToV1,
  apiAgentUpdateToV1,
  v1AgentToApi,
} from '../agents/api-agent-mapping.js';
import { API_TEAM_TOOLS_METADATA_KEY } from '../agents/api-team-tools.js';
import {
  ApiCreateEnvironmentRequestSchema,
  apiEnvironmentToV1,
  v1EnvironmentToApi,
} from '../environments/api-environments.js';
import { ApiCreateSessionRequestSchema, apiSessionToV1, v1SessionToApi } from '../sessions/api-sessions.js';
import { ApiSendEventsRequestSchema, apiEventToV1, v1EventToApi } from '../session-events/api-events.js';
import { AgentSchema, CreateAgentRequestSchema, UpdateAgentRequestSchema } from '../agents/agents.js';
import { normalizeAgentTools } from '../agents/agent-tool-defaults.js';
import {
  CreateEnvironmentRequestSchema,
  EnvironmentSchema,
  normalizeEnvironmentConfig,
} from '../environments/environments.js';
import { CreateSessionRequestSchema, SessionSchema } from '../sessions/sessions.js';
import { InboundEventSchema } from '../session-events/inbound-events.js';

const at = '2026-11-30T12:00:00.000Z';

describe('/api agents', () => {
  // The "Workspace Copilot" and "Ops Publisher" bodies from the walkthrough.
  const copilot = ApiAgentRequestSchema.parse({
    name: 'Workspace Copilot',
    description: 'blog demo agent',
    system: 'You are a workspace copilot.',
    tools: [
      {
        type: 'agent_toolset',
        defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
        configs: [
          { name: 'read_file', enabled: true },
          { name: 'list_files', enabled: true },
          { name: 'write_file', enabled: true },
        ],
      },
    ],
  });
  const ops = ApiAgentRequestSchema.parse({
    name: 'Ops Publisher',
    tools: [
      {
        type: 'agent_toolset',
        defaultConfig: { enabled: false, permissionPolicy: { type: 'deny' } },
        configs: [
          { name: 'read_file', enabled: true, permissionPolicy: { type: 'always_allow' } },
          { name: 'sessions_spawn', enabled: true },
        ],
      },
    ],
    mcpServers: [
      {
        name: 'ticket-mcp',
        url: 'https://mcp.example.com/tickets',
        transport: 'http',
        enableTools: ['draft_ticket'],
      },
    ],
    maxIters: 12,
  });

  it('maps the walkthrough agents to valid /v1 requests', () => {
    const v1 = CreateAgentRequestSchema.parse(apiAgentToV1(copilot, { defaultModel: 'claude-sonnet-5' }));
    expect(v1.model).toBe('claude-sonnet-5');
    expect(v1.tools).toEqual([
      {
        type: 'agent_toolset_20260401',
        default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
        configs: [
          { name: 'read', enabled: true },
          { name: 'glob', enabled: true },
          { name: 'write', enabled: true },
        ],
      },
    ]);
  });

  it('turns deny into disabled, drops tools with no built-in equivalent and wires MCP allow-lists', () => {
    const v1 = CreateAgentRequestSchema.parse(apiAgentToV1(ops, { defaultModel: 'm' }));
    expect(v1.tools![0]).toEqual({
      type: 'agent_toolset_20260401',
      default_config: { enabled: false },
      configs: [{ name: 'read', enabled: true, permission_policy: { type: 'always_allow' } }],
    });
    expect(v1.tools![1]).toEqual({
      type: 'mcp_toolset',
      mcp_server_name: 'ticket-mcp',
      default_config: { enabled: false },
      configs: [{ name: 'draft_ticket', enabled: true }],
    });
    expect(v1.mcp_servers).toEqual([
      { type: 'url', name: 'ticket-mcp', url: 'https://mcp.example.com/tickets' },
    ]);
    expect(v1.metadata).toEqual({
      [MAX_ITERS_METADATA_KEY]: '12',
      [API_TOOL_NAMES_METADATA_KEY]: 'read=read_file',
    });
  });

  it('maps a PUT to a partial update that keeps omitted collections', () => {
    const update = UpdateAgentRequestSchema.parse(
      apiAgentUpdateToV1(ApiAgentRequestSchema.parse({ name: 'renamed', version: 2 })),
    );
    expect(update).toEqual({ name: 'renamed', version: 2 });
  });

  it('maps a stored agent back to the camelCase shape', () => {
    const request = CreateAgentRequestSchema.parse(apiAgentToV1(ops, { defaultModel: 'claude-sonnet-5' }));
    const stored = AgentSchema.parse({
      type: 'agent',
      id: 'agent_1',
      version: 1,
      name: request.name,
      description: null,
      system: null,
      model: { id: 'claude-sonnet-5' },
      tools: normalizeAgentTools(request.tools ?? []),
      mcp_servers: request.mcp_servers,
      skills: [],
      multiagent: null,
      execution_identity: { type: 'service_account' },
      metadata: request.metadata,
      created_at: at,
      updated_at: at,
      archived_at: null,
    });
    const api = v1AgentToApi(stored);
    expect(api.maxIters).toBe(12);
    expect(api.metadata).toEqual({});
    expect(api.model).toBe('claude-sonnet-5');
    expect(api.tools[0]).toEqual({
      type: 'agent_toolset',
      defaultConfig: { enabled: false, permissionPolicy: { type: 'always_allow' } },
      configs: [{ name: 'read_file', enabled: true, permissionPolicy: { type: 'always_allow' } }],
    });
  });

  it('reads back the tool names a client wrote, AgentScope or CMA', () => {
    const written = ApiAgentRequestSchema.parse({
      name: 'names',
      tools: [
        {
          type: 'agent_toolset',
          configs: [
            { name: 'execute' },
            { name: 'read_file' },
            { name: 'list_files' },
            { name: 'write' },
            { name: 'web_search' },
          ],
        },
      ],
    });
    const request = CreateAgentRequestSchema.parse(apiAgentToV1(written, { defaultModel: 'm' }));
    expect(request.tools![0]).toMatchObject({
      configs: ['bash', 'read', 'glob', 'write', 'web_search'].map((name) => ({ name })),
    });
    const at = '2026-01-01T00:00:00Z';
    const stored = AgentSchema.parse({
      type: 'agent',
      id: 'agent_2',
      version: 1,
      name: 'names',
      description: null,
      system: null,
      model: { id: 'm' },
      tools: normalizeAgentTools(request.tools ?? []),
      mcp_servers: [],
      skills: [],
      multiagent: null,
      execution_identity: { type: 'service_account' },
      metadata: request.metadata,
      created_at: at,
      updated_at: at,
      archived_at: null,
    });
    const api = v1AgentToApi(stored);
    expect(api.tools[0]!.type === 'agent_toolset' && api.tools[0]!.configs!.map((c) => c.name)).toEqual([
      'execute',
      'read_file',
      'list_files',
      'write',
      'web_search',
    ]);
    expect(api.metadata).toEqual({});
    const update = UpdateAgentRequestSchema.parse(
      apiAgentUpdateToV1(
        ApiAgentRequestSchema.parse({
          name: 'n',
          tools: [{ type: 'agent_toolset', configs: [{ name: 'bash' }] }],
        }),
      ),
    );
    expect(update.metadata).toEqual({
      [API_TOOL_NAMES_METADATA_KEY]: null,
      [API_TEAM_TOOLS_METADATA_KEY]: null,
    });
  });

  it('keeps the Team Lead tools a toolset enables and reads them back under the toolset', () => {
    const lead = ApiAgentRequestSchema.parse({
      name: 'Team Lead',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'sessions_spawn', enabled: true },
            { name: 'sessions_list' },
            { name: 'sessions_pending_completions', enabled: false },
            { name: 'wait_async_results', permissionPolicy: { type: 'deny' } },
            { name: 'read_file', enabled: true },
          ],
        },
      ],
    });
    const request = CreateAgentRequestSchema.parse(apiAgentToV1(lead, { defaultModel: 'm' }));
    expect(request.metadata).toMatchObject({ [API_TEAM_TOOLS_METADATA_KEY]: 'sessions_spawn,sessions_list' });
    const stored = AgentSchema.parse({
      type: 'agent',
      id: 'agent_3',
      version: 1,
      name: 'Team Lead',
      description: null,
      system: null,
      model: { id: 'm' },
      tools: normalizeAgentTools(request.tools ?? []),
      mcp_servers: [],
      skills: [],
      multiagent: null,
      execution_identity: { type: 'service_account' },
      metadata: request.metadata,
      created_at: at,
      updated_at: at,
      archived_at: null,
    });
    const api = v1AgentToApi(stored);
    expect(api.metadata).toEqual({});
    expect(api.tools[0]!.type === 'agent_toolset' && api.tools[0]!.configs!.map((c) => c.name)).toEqual([
      'read_file',
      'sessions_spawn',
      'sessions_list',
    ]);
    const kept = UpdateAgentRequestSchema.parse(apiAgentUpdateToV1(lead));
    expect(kept.metadata).toMatchObject({ [API_TEAM_TOOLS_METADATA_KEY]: 'sessions_spawn,sessions_list' });
  });

  it('requires a name, as AgentScope did', () => {
    expect(ApiAgentRequestSchema.safeParse({ description: 'x' }).error!.issues[0]!.path).toEqual(['name']);
  });
});

describe('/api environments', () => {
  it('defaults to local and serves sandbox with a cloud config', () => {
    const local = CreateEnvironmentRequestSchema.parse(
      apiEnvironmentToV1(ApiCreateEnvironmentRequestSchema.parse({ name: 'dev' })),
    );
    expect(local.config).toEqual({ type: 'local' });
    const sandbox = CreateEnvironmentRequestSchema.parse(
      apiEnvironmentToV1(
        ApiCreateEnvironmentRequestSchema.parse({
          name: 'sb',
          type: 'sandbox',
          config: { templateId: 'base', packages: { pip: ['pandas'] } },
        }),
      ),
    );
    expect(sandbox.config).toEqual({ type: 'cloud', packages: { pip: ['pandas'] } });
  });

  it('shows the key only when given, and flattens the config type', () => {
    const env = EnvironmentSchema.parse({
      type: 'environment',
      id: 'env_1',
      name: 'dev',
      description: null,
      config: normalizeEnvironmentConfig({ type: 'self_hosted' }),
      metadata: {},
      created_at: at,
      updated_at: at,
      archived_at: null,
    });
    expect(v1EnvironmentToApi(env)).not.toHaveProperty('apiKey');
    expect(v1EnvironmentToApi(env, 'envkey_secret')).toMatchObject({
      type: 'self_hosted',
      config: {},
      apiKey: 'envkey_secret',
    });
  });
});

describe('/api sessions', () => {
  it('maps overrides and memory stores onto /v1', () => {
    const req = ApiCreateSessionRequestSchema.parse({
      agent: { id: 'agent_1', version: 2 },
      environmentId: 'env_1',
      memoryStoreIds: ['memstore_1'],
      agentOverrides: { system: 'be terse' },
    });
    expect(CreateSessionRequestSchema.parse(apiSessionToV1(req))).toEqual({
      agent: { type: 'agent_with_overrides', id: 'agent_1', version: 2, system: 'be terse' },
      environment_id: 'env_1',
      resources: [{ type: 'memory_store', memory_store_id: 'memstore_1' }],
    });
    expect(
      apiSessionToV1(ApiCreateSessionRequestSchema.parse({ agent: 'agent_1', environmentId: 'env_1' })).agent,
    ).toBe('agent_1');
  });

  it('rejects override keys CMA cannot apply, naming them', () => {
    const result = ApiCreateSessionRequestSchema.safeParse({
      agent: 'a',
      environmentId: 'e',
      agentOverrides: { maxIters: 3 },
    });
    expect(result.error!.issues[0]!.path).toEqual(['agentOverrides']);
    expect(result.error!.issues[0]!.message).toContain('maxIters');
  });

  it('reports archived sessions as archived', () => {
    const session = SessionSchema.parse({
      type: 'session',
      id: 'sesn_1',
      agent: {
        type: 'agent',
        id: 'agent_1',
        version: 2,
        name: 'a',
        description: null,
        system: null,
        model: { id: 'm' },
        tools: [],
        mcp_servers: [],
        skills: [],
        multiagent: null,
        execution_identity: { type: 'service_account' },
      },
      environment_id: 'env_1',
      title: null,
      status: 'idle',
      stop_reason: { type: 'end_turn' },
      metadata: {},
      resources: [{ type: 'memory_store', memory_store_id: 'memstore_1' }],
      vault_ids: [],
      budget: null,
      usage: { input_tokens: 7 },
      stats: {},
      outcome_evaluations: [],
      created_at: at,
      updated_at: at,
      archived_at: at,
    });
    expect(v1SessionToApi(session)).toMatchObject({
      status: 'archived',
      stopReason: 'end_turn',
      agentVersion: 2,
      memoryStoreIds: ['memstore_1'],
      usage: { inputTokens: 7, outputTokens: 0 },
    });
  });
});

describe('/api events', () => {
  it('maps AgentScope payload spellings to valid /v1 events', () => {
    const { events } = ApiSendEventsRequestSchema.parse({
      events: [
        { type: 'user.message', payload: { text: 'hello' } },
        { type: 'user.tool_confirmation', payload: { toolUseId: 'sevt_1', allow: false, denyMessage: 'no' } },
        { type: 'user.tool_result', payload: { tool_use_id: 'sevt_2', output: 'done', is_error: false } },
        { type: 'system.message', payload: { system: 'be brief' } },
        { type: 'user.message', content: [{ type: 'text', text: 'flat CMA form' }] },
      ],
    });
    const v1 = events.map((e) => InboundEventSchema.parse(apiEventToV1(e)));
    expect(v1).toEqual([
      { type: 'user.message', content: [{ type: 'text', text: 'hello' }] },
      { type: 'user.tool_confirmation', tool_use_id: 'sevt_1', result: 'deny', deny_message: 'no' },
      {
        type: 'user.tool_result',
        tool_use_id: 'sevt_2',
        content: [{ type: 'text', text: 'done' }],
        is_error: false,
      },
      { type: 'system.message', content: [{ type: 'text', text: 'be brief' }] },
      { type: 'user.message', content: [{ type: 'text', text: 'flat CMA form' }] },
    ]);
  });

  it('leaves unknown types for the /v1 schema to reject', () => {
    const mapped = apiEventToV1({ type: 'session.hack', payload: {} });
    expect(InboundEventSchema.safeParse(mapped).error!.issues[0]!.message).toContain('type must be one of');
  });

  it('nests the payload of a persisted event and exposes seq', () => {
    const api = v1EventToApi(
      {
        id: 'sevt_9',
        type: 'agent.message',
        content: [{ type: 'text', text: 'hi' }],
        processed_at: at,
        created_at: at,
      },
      { sessionId: 'sesn_1', seq: 4 },
    );
    expect(api).toEqual({
      id: 'sevt_9',
      sessionId: 'sesn_1',
      seq: 4,
      type: 'agent.message',
      payload: { content: [{ type: 'text', text: 'hi' }] },
      processedAt: at,
      createdAt: at,
    });
  });
});
