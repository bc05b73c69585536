import { describe, expect, it } from 'vitest';
import { agentBodyOf, EMPTY_AGENT, formOfAgent } from './agent-form';

const stored = {
  name: 'researcher',
  model: 'scripted',
  system: 'Look things up.',
  tools: [
    {
      type: 'agent_toolset_20260401',
      default_config: { permission_policy: { type: 'always_allow' } },
      configs: [
        { name: 'bash', permission_policy: { type: 'always_ask' } },
        { name: 'web_fetch', allowed_domains: ['docs.example.com'] },
        { name: 'write', enabled: false },
      ],
    },
    {
      type: 'mcp_toolset',
      mcp_server_name: 'github',
      default_config: { permission_policy: { type: 'always_ask' } },
    },
    { type: 'custom', name: 'lookup', description: 'Looks up', input_schema: { type: 'object' } },
  ],
  mcp_servers: [{ type: 'url', name: 'github', url: 'https://mcp.example.com/sse' }],
  skills: [],
};

describe('the agent form', () => {
  it('shows each built-in tool with its own policy, or off, or the default', () => {
    const form = formOfAgent(stored);
    expect(form.tools).toMatchObject({
      bash: 'always_ask',
      write: 'disabled',
      web_fetch: 'default',
      read: 'default',
    });
    expect(form.permission).toBe('always_allow');
  });

  it('saves what it loaded unchanged: MCP toolsets, custom tools and fields it does not show survive', () => {
    const body = agentBodyOf(formOfAgent(stored));
    expect(body.tools).toEqual(stored.tools);
    expect(body.mcp_servers).toEqual(stored.mcp_servers);
  });

  it('sends a per-tool policy the user picks, and drops a tool put back to the default', () => {
    const form = formOfAgent(stored);
    form.tools.read = 'always_ask';
    form.tools.bash = 'default';
    const [toolset] = agentBodyOf(form).tools as [{ configs: unknown[] }];
    expect(toolset.configs).toEqual([
      { name: 'web_fetch', allowed_domains: ['docs.example.com'] },
      { name: 'write', enabled: false },
      { name: 'read', permission_policy: { type: 'always_ask' } },
    ]);
  });

  it('names a field that is not valid JSON', () => {
    expect(() => agentBodyOf({ ...EMPTY_AGENT, name: 'a', otherTools: '[{' })).toThrow(
      'Other tools is not valid JSON',
    );
    expect(() => agentBodyOf({ ...EMPTY_AGENT, name: 'a', otherTools: '{}' })).toThrow(
      'must be a JSON array',
    );
  });
});
