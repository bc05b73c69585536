import { describe, expect, it } from 'vitest';
import type {
  AgentCreateParams,
  AgentUpdateParams,
  BetaManagedAgentsAgent,
} from '@anthropic-ai/sdk/resources/beta/agents/agents.js';
import type {
  BetaEnvironment,
  EnvironmentCreateParams,
} from '@anthropic-ai/sdk/resources/beta/environments/environments.js';
import type {
  BetaManagedAgentsSession,
  SessionCreateParams,
} from '@anthropic-ai/sdk/resources/beta/sessions/sessions.js';
import { AgentSchema, CreateAgentRequestSchema, UpdateAgentRequestSchema } from '../agents/agents.js';
import { CreateEnvironmentRequestSchema, EnvironmentSchema } from '../environments/environments.js';
import { CreateSessionRequestSchema, SessionSchema } from '../sessions/sessions.js';

const at = '2026-11-30T12:00:00.000Z';

const agent: BetaManagedAgentsAgent = {
  id: 'agent_011CZkYpogX7uDKUyvBTophP',
  type: 'agent',
  name: 'Support agent',
  description: null,
  system: 'You answer order questions.',
  model: { id: 'claude-opus-5-5', effort: { type: 'high' }, speed: 'standard' },
  tools: [
    {
      type: 'agent_toolset_20260401',
      default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
      configs: [{ name: 'bash', type: 'bash', enabled: true, permission_policy: { type: 'always_ask' } }],
    },
    {
      type: 'mcp_toolset',
      mcp_server_name: 'github',
      default_config: { enabled: true, permission_policy: { type: 'always_ask' } },
      configs: [{ name: 'search', enabled: true, permission_policy: { type: 'auto' } }],
    },
    {
      type: 'custom',
      name: 'lookup_order',
      description: 'Look up an order',
      input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
  ],
  mcp_servers: [{ type: 'url', name: 'github', url: 'https://mcp.example.com/github' }],
  skills: [{ type: 'anthropic', skill_id: 'xlsx', version: 'latest' }],
  multiagent: null,
  execution_identity: { type: 'service_account' },
  metadata: { team: 'support' },
  version: 3,
  created_at: at,
  updated_at: at,
  archived_at: null,
};

describe('agents match the SDK', () => {
  it('the Agent schema accepts an SDK-typed agent unchanged', () => {
    expect(AgentSchema.parse(agent)).toEqual(agent);
  });

  it('accepts the SDK create example and a full create request', () => {
    const minimal: AgentCreateParams = { model: 'claude-opus-5-5', name: 'My First Agent' };
    expect(CreateAgentRequestSchema.parse(minimal)).toEqual(minimal);
    const full: AgentCreateParams = {
      name: 'Full',
      model: { id: 'claude-sonnet-5', effort: 'low' },
      system: 'be kind',
      tools: [
        {
          type: 'agent_toolset_20260401',
          default_config: { permission_policy: { type: 'always_ask' } },
          configs: [{ name: 'web_fetch', allowed_domains: ['example.com'] }],
        },
        { type: 'mcp_toolset', mcp_server_name: 'github' },
      ],
      mcp_servers: [{ type: 'url', name: 'github', url: 'https://mcp.example.com/github' }],
      skills: [{ type: 'custom', skill_id: 'skill_01' }],
      multiagent: { type: 'coordinator', agents: ['agent_011CZkYpogX7uDKUyvBTophP', { type: 'self' }] },
      metadata: { a: 'b' },
    };
    expect(CreateAgentRequestSchema.parse(full)).toEqual(full);
  });

  it('accepts the SDK update example, which sends no version', () => {
    const update: AgentUpdateParams = { description: 'updated' };
    expect(UpdateAgentRequestSchema.parse(update)).toEqual(update);
    expect(UpdateAgentRequestSchema.parse({ version: 3, metadata: { team: null } })).toEqual({
      version: 3,
      metadata: { team: null },
    });
  });

  it('rejects what CMA rejects, naming the field', () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'x', model: 'm', colour: 'red' }, ''],
      [{ name: '', model: 'm' }, 'name'],
      [{ name: 'x'.repeat(257), model: 'm' }, 'name'],
      [{ name: 'x', model: 'm', system: 's'.repeat(100_001) }, 'system'],
      [
        {
          name: 'x',
          model: 'm',
          metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])),
        },
        'metadata',
      ],
      [{ name: 'x', model: 'm', metadata: { ['k'.repeat(65)]: 'v' } }, `metadata.${'k'.repeat(65)}`],
      [{ name: 'x', model: 'm', metadata: { k: 'v'.repeat(513) } }, 'metadata.k'],
      [
        { name: 'x', model: 'm', tools: [{ type: 'agent_toolset_20260401', configs: [{ name: 'rm_rf' }] }] },
        'tools.0.configs.0.name',
      ],
      [
        {
          name: 'x',
          model: 'm',
          tools: [{ type: 'custom', name: 'bad name', description: 'd', input_schema: { type: 'object' } }],
        },
        'tools.0.name',
      ],
    ];
    for (const [body, path] of cases) {
      const result = CreateAgentRequestSchema.safeParse(body);
      expect(result.success, JSON.stringify(body).slice(0, 80)).toBe(false);
      expect(result.error!.issues[0]!.path.join('.')).toBe(path);
    }
    const unknown = CreateAgentRequestSchema.safeParse({ name: 'x', model: 'm', colour: 'red' });
    expect(unknown.error!.issues[0]!.message).toContain('colour');
  });

  it('rejects a stale-version update body that is not a positive integer', () => {
    expect(UpdateAgentRequestSchema.safeParse({ version: 0 }).error!.issues[0]!.path).toEqual(['version']);
  });
});

describe('environments match the SDK', () => {
  it('the Environment schema accepts SDK-typed environments unchanged', () => {
    const cloud: BetaEnvironment = {
      id: 'env_011CZkZ9X2dpNyB7HsEFoRfW',
      type: 'environment',
      name: 'python',
      description: null,
      config: {
        type: 'cloud',
        networking: {
          type: 'limited',
          allowed_hosts: ['pypi.org'],
          allow_mcp_servers: true,
          allow_package_managers: true,
        },
        packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: [], pip: ['pandas'] },
      },
      metadata: {},
      scope: 'organization',
      created_at: at,
      updated_at: at,
      archived_at: null,
    };
    const selfHosted: BetaEnvironment = { ...cloud, config: { type: 'self_hosted' } };
    expect(EnvironmentSchema.parse(cloud)).toEqual(cloud);
    expect(EnvironmentSchema.parse(selfHosted)).toEqual(selfHosted);
  });

  it('accepts SDK create params and the Agentry extensions', () => {
    const params: EnvironmentCreateParams = {
      name: 'e',
      config: { type: 'cloud', networking: { type: 'unrestricted' }, packages: { pip: ['requests'] } },
    };
    expect(CreateEnvironmentRequestSchema.parse(params)).toEqual(params);
    expect(CreateEnvironmentRequestSchema.parse({ name: 'l', config: { type: 'local' } }).config).toEqual({
      type: 'local',
    });
    const bad = CreateEnvironmentRequestSchema.safeParse({ name: 'x', config: { type: 'vm' } });
    expect(bad.error!.issues[0]!.path).toEqual(['config', 'type']);
  });
});

describe('sessions match the SDK', () => {
  const { metadata: _m, created_at: _c, updated_at: _u, archived_at: _a, ...snapshot } = agent;
  const session: BetaManagedAgentsSession = {
    id: 'sesn_011CZkZAtmR3yMPDzynEDxu7',
    type: 'session',
    agent: { ...snapshot, multiagent: null },
    environment_id: 'env_011CZkZ9X2dpNyB7HsEFoRfW',
    title: null,
    status: 'idle',
    metadata: {},
    resources: [
      {
        type: 'file',
        id: 'sesrsc_011CZkZBJq5dWxk9fVLNcPht',
        file_id: 'file_011CNha8iCJcU1wXNR6q4V8w',
        mount_path: '/mnt/data.csv',
        created_at: at,
        updated_at: at,
      },
      { type: 'memory_store', memory_store_id: 'memstore_01', access: 'read_only' },
    ],
    vault_ids: ['vlt_011CZkZDLs7fYzm1hXNPeRjv'],
    budget: { type: 'limit', max_list_cost: { amount: '5.00', currency: 'USD' } },
    usage: { input_tokens: 100, output_tokens: 20, list_cost: { amount: '0.02', currency: 'USD' } },
    stats: { active_seconds: 3, duration_seconds: 60 },
    outcome_evaluations: [],
    deployment_id: null,
    created_at: at,
    updated_at: at,
    archived_at: null,
  };

  it('the Session schema accepts an SDK-typed session unchanged', () => {
    expect(SessionSchema.parse(session)).toEqual(session);
  });

  it('accepts each form of `agent` in a create request', () => {
    const forms: SessionCreateParams['agent'][] = [
      'agent_011CZkYpogX7uDKUyvBTophP',
      { type: 'agent', id: 'agent_011CZkYpogX7uDKUyvBTophP', version: 2 },
      {
        type: 'agent_with_overrides',
        id: 'agent_011CZkYpogX7uDKUyvBTophP',
        system: null,
        model: 'claude-haiku-5-5',
      },
    ];
    for (const form of forms) {
      const body: SessionCreateParams = {
        agent: form,
        environment_id: 'env_011CZkZ9X2dpNyB7HsEFoRfW',
        title: 'Order help',
        resources: [
          {
            type: 'github_repository',
            url: 'https://github.com/acme/app',
            checkout: { type: 'branch', name: 'main' },
            mount_path: '/workspace/app',
          },
        ],
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'hi' }] }],
        budget: { type: 'limit', max_list_cost: { amount: '1.00', currency: 'USD' } },
      };
      expect(CreateSessionRequestSchema.parse(body)).toEqual(body);
    }
  });

  it('rejects initial events other than messages and outcomes', () => {
    const result = CreateSessionRequestSchema.safeParse({
      agent: 'agent_1',
      environment_id: 'env_1',
      initial_events: [{ type: 'user.interrupt' }],
    });
    expect(result.error!.issues[0]!.path).toEqual(['initial_events', 0, 'type']);
  });
});
