import { describe, expect, it } from 'vitest';
import { normalizeAgentTools } from '@agentry/contracts';
import { MemoryWorkspaceFs } from '@agentry/workspace';
import { sessionAgentTools } from './session-agent-tools.js';
import { handsKindOf, sandboxNetworkingOf, sandboxProviderOf } from './sandbox-networking.mapper.js';

const options = { webFetch: {}, webSearch: {} };

function toolset(
  configs: Array<{ name: 'bash' | 'web_search' | 'read'; enabled: boolean }> = [],
  enabled = true,
) {
  const [tool] = normalizeAgentTools([
    { type: 'agent_toolset_20260401', default_config: { enabled }, configs },
  ]);
  if (tool?.type !== 'agent_toolset_20260401') throw new Error('not a toolset');
  return tool;
}

describe('session agent tools', () => {
  it('offers the eight CMA tools in every environment type', () => {
    for (const kind of ['local', 'sandbox', 'remote', 'self_hosted'] as const) {
      expect(
        sessionAgentTools(toolset(), kind, options)
          .map((t) => t.name)
          .sort(),
        kind,
      ).toEqual(['bash', 'edit', 'glob', 'grep', 'read', 'web_fetch', 'web_search', 'write']);
    }
  });

  it('leaves out what the agent disables; a tool enabled by name survives a disabled default', () => {
    const names = sessionAgentTools(
      toolset([
        { name: 'bash', enabled: false },
        { name: 'web_search', enabled: false },
      ]),
      'local',
      options,
    ).map((t) => t.name);
    expect(names.sort()).toEqual(['edit', 'glob', 'grep', 'read', 'web_fetch', 'write']);
    expect(
      sessionAgentTools(toolset([{ name: 'read', enabled: true }], false), 'remote', options).map(
        (t) => t.name,
      ),
    ).toEqual(['read']);
  });

  it('suspends file and shell tools for a self-hosted worker and refuses bash in remote environments', async () => {
    const context = {
      toolCallId: 't',
      signal: new AbortController().signal,
      sessionId: 's',
      agentId: 'a',
      values: {},
    } as never;
    const selfHosted = sessionAgentTools(toolset(), 'self_hosted', options).find((t) => t.name === 'bash')!;
    await expect(selfHosted.execute({ command: 'ls' }, context)).resolves.toEqual({ status: 'pending' });
    const remote = sessionAgentTools(toolset(), 'remote', options).find((t) => t.name === 'bash')!;
    await expect(remote.execute({ command: 'ls' }, context)).resolves.toMatchObject({
      status: 'error',
      reason: 'unavailable',
    });
  });

  it("writes a remote session's files to its own workspace, never the agent's shared one", async () => {
    const sessionFiles = new MemoryWorkspaceFs();
    const agentFiles = new MemoryWorkspaceFs();
    const write = sessionAgentTools(toolset(), 'remote', { ...options, sessionFiles }).find(
      (t) => t.name === 'write',
    )!;
    const context = {
      toolCallId: 't',
      fs: agentFiles,
      signal: new AbortController().signal,
      sessionId: 's',
      agentId: 'a',
      values: {},
    };
    await expect(
      write.execute({ file_path: 'AGENTS.md', content: 'overwritten?' }, context),
    ).resolves.toMatchObject({ status: 'ok' });
    expect(await sessionFiles.readText('AGENTS.md')).toBe('overwritten?');
    expect(await agentFiles.exists('AGENTS.md')).toBe(false);
  });

  it('reads the environment type and networking the sandbox enforces', () => {
    expect(handsKindOf('sandbox')).toBe('sandbox');
    expect(handsKindOf('anything-else')).toBe('local');
    expect(sandboxNetworkingOf(undefined)).toEqual({ type: 'unrestricted', allowedHosts: [] });
    const limited = {
      type: 'limited',
      allowed_hosts: ['api.example.com'],
      allow_mcp_servers: false,
      allow_package_managers: true,
    };
    const mapped = sandboxNetworkingOf({ type: 'cloud', networking: limited });
    expect(mapped.type).toBe('limited');
    expect(mapped.allowedHosts).toEqual(
      expect.arrayContaining(['api.example.com', 'registry.npmjs.org', 'pypi.org']),
    );
  });

  it('opens the agent MCP servers to a limited sandbox only with allow_mcp_servers', () => {
    const urls = ['https://mcp.example.com/sse', 'http://tools.internal:8931/mcp', 'not a url'];
    const networking = (allow: boolean) => ({
      type: 'cloud',
      networking: {
        type: 'limited',
        allowed_hosts: [],
        allow_mcp_servers: allow,
        allow_package_managers: false,
      },
    });
    expect(sandboxNetworkingOf(networking(true), urls).allowedHosts).toEqual([
      'mcp.example.com:443',
      'tools.internal:8931',
    ]);
    expect(sandboxNetworkingOf(networking(false), urls).allowedHosts).toEqual([]);
  });

  it("tells the worker the environment's sandbox provider, or nothing so its default decides", () => {
    expect(sandboxProviderOf(undefined)).toEqual({});
    expect(sandboxProviderOf({ type: 'local' })).toEqual({});
    expect(
      sandboxProviderOf({
        type: 'cloud',
        sandbox: {
          provider: 'e2b',
          template: 'agentry-python',
          api_url: 'https://api.e2b.test',
          domain: 'e2b.test',
        },
      }),
    ).toEqual({
      sandbox: {
        provider: 'e2b',
        template: 'agentry-python',
        apiUrl: 'https://api.e2b.test',
        domain: 'e2b.test',
      },
    });
    expect(sandboxProviderOf({ type: 'local', sandbox: { provider: 'bubblewrap' } })).toEqual({
      sandbox: { provider: 'bubblewrap' },
    });
  });
});
