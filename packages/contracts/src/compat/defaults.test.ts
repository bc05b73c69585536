import { describe, expect, it } from 'vitest';
import { normalizeAgentTools } from '../agents/agent-tool-defaults.js';
import { CreateAgentRequestSchema, toModelConfig } from '../agents/agents.js';
import { CreateEnvironmentRequestSchema, normalizeEnvironmentConfig } from '../environments/environments.js';

describe('normalizeAgentTools', () => {
  it('fills CMA defaults: built-in tools allowed, MCP tools ask', () => {
    const [toolset, mcp] = normalizeAgentTools([
      {
        type: 'agent_toolset_20260401',
        configs: [{ name: 'bash', permission_policy: { type: 'always_ask' } }, { name: 'read' }],
      },
      { type: 'mcp_toolset', mcp_server_name: 'github', configs: [{ name: 'search' }] },
    ]);
    expect(toolset).toEqual({
      type: 'agent_toolset_20260401',
      default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
      configs: [
        { name: 'bash', type: 'bash', enabled: true, permission_policy: { type: 'always_ask' } },
        { name: 'read', type: 'read', enabled: true, permission_policy: { type: 'always_allow' } },
      ],
    });
    expect(mcp).toEqual({
      type: 'mcp_toolset',
      mcp_server_name: 'github',
      default_config: { enabled: true, permission_policy: { type: 'always_ask' } },
      configs: [{ name: 'search', enabled: true, permission_policy: { type: 'always_ask' } }],
    });
  });

  it('lets a toolset default apply to every tool that does not override it', () => {
    const [toolset] = normalizeAgentTools([
      {
        type: 'agent_toolset_20260401',
        default_config: { enabled: false },
        configs: [{ name: 'grep', enabled: true }, { name: 'bash' }],
      },
    ]);
    expect(toolset).toMatchObject({
      configs: [
        { name: 'grep', enabled: true },
        { name: 'bash', enabled: false },
      ],
    });
  });
});

describe('toModelConfig', () => {
  it('turns a bare id or string effort into the stored object', () => {
    expect(toModelConfig('claude-opus-5-5')).toEqual({ id: 'claude-opus-5-5' });
    expect(toModelConfig({ id: 'm', effort: 'high', speed: null })).toEqual({
      id: 'm',
      effort: { type: 'high' },
    });
  });
});

describe('normalizeEnvironmentConfig', () => {
  it('defaults to an unrestricted cloud container with no packages', () => {
    expect(normalizeEnvironmentConfig(undefined)).toEqual({
      type: 'cloud',
      networking: { type: 'unrestricted' },
      packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
    });
  });

  it('closes limited networking by default', () => {
    const config = normalizeEnvironmentConfig({
      type: 'cloud',
      networking: { type: 'limited', allowed_hosts: ['pypi.org'] },
    });
    expect(config).toMatchObject({
      networking: {
        type: 'limited',
        allowed_hosts: ['pypi.org'],
        allow_mcp_servers: false,
        allow_package_managers: false,
      },
    });
    expect(normalizeEnvironmentConfig({ type: 'self_hosted' })).toEqual({ type: 'self_hosted' });
  });
});

describe('tool confirmation timeout', () => {
  it('is kept on any config type when set, absent otherwise, and must be a positive whole number of seconds', () => {
    expect(
      normalizeEnvironmentConfig({ type: 'self_hosted', tool_confirmation_timeout_seconds: 60 }),
    ).toEqual({ type: 'self_hosted', tool_confirmation_timeout_seconds: 60 });
    expect(normalizeEnvironmentConfig({ type: 'cloud', tool_confirmation_timeout_seconds: 5 })).toMatchObject(
      { tool_confirmation_timeout_seconds: 5 },
    );
    expect(normalizeEnvironmentConfig({ type: 'cloud' })).not.toHaveProperty(
      'tool_confirmation_timeout_seconds',
    );
    const bad = CreateEnvironmentRequestSchema.safeParse({
      name: 'e',
      config: { type: 'cloud', tool_confirmation_timeout_seconds: 0 },
    });
    expect(bad.success).toBe(false);
  });
});

describe('custom tool names', () => {
  const custom = (name: string) => ({
    type: 'custom' as const,
    name,
    description: 'd',
    input_schema: { type: 'object' as const },
  });

  it('may not repeat or take the name of a toolset tool', () => {
    expect(
      CreateAgentRequestSchema.safeParse({
        name: 'a',
        model: 'scripted',
        tools: [custom('lookup'), custom('other')],
      }).success,
    ).toBe(true);
    const twice = CreateAgentRequestSchema.safeParse({
      name: 'a',
      model: 'scripted',
      tools: [custom('lookup'), custom('lookup')],
    });
    expect(twice.error?.issues[0]?.message).toBe('custom tool name lookup is already taken by another tool');
    expect(
      CreateAgentRequestSchema.safeParse({ name: 'a', model: 'scripted', tools: [custom('bash')] }).success,
    ).toBe(false);
  });
});

describe('environment sandbox provider', () => {
  const create = (config: unknown) => CreateEnvironmentRequestSchema.safeParse({ name: 'e2b', config });

  it('keeps the provider, template and self-hosted endpoint of cloud and local configs', () => {
    const sandbox = {
      provider: 'e2b',
      template: 'agentry-python',
      api_url: 'https://api.e2b.internal.example',
      domain: 'e2b.internal.example',
    } as const;
    expect(normalizeEnvironmentConfig({ type: 'cloud', sandbox })).toMatchObject({ type: 'cloud', sandbox });
    expect(
      normalizeEnvironmentConfig({ type: 'local', sandbox: { provider: 'bubblewrap', template: null } }),
    ).toEqual({ type: 'local', sandbox: { provider: 'bubblewrap' } });
    expect(normalizeEnvironmentConfig({ type: 'local' })).toEqual({ type: 'local' });
  });

  it('refuses an API key, an unknown provider or a bad endpoint, naming the field', () => {
    const issue = (config: unknown) => {
      const parsed = create(config);
      return parsed.success ? null : parsed.error.issues[0];
    };
    expect(issue({ type: 'cloud', sandbox: { provider: 'e2b', api_key: 'e2b_secret' } })).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['api_key'],
      path: ['config', 'sandbox'],
    });
    expect(issue({ type: 'local', sandbox: { provider: 'firecracker' } })?.path).toEqual([
      'config',
      'sandbox',
      'provider',
    ]);
    expect(issue({ type: 'cloud', sandbox: { provider: 'e2b', api_url: 'ftp://e2b' } })?.path).toEqual([
      'config',
      'sandbox',
      'api_url',
    ]);
    expect(issue({ type: 'cloud', sandbox: { provider: 'e2b', domain: 'not a host' } })?.path).toEqual([
      'config',
      'sandbox',
      'domain',
    ]);
    expect(issue({ type: 'self_hosted', sandbox: { provider: 'e2b' } })?.code).toBe('unrecognized_keys');
  });
});
