import { describe, expect, it } from 'vitest';
import { normalizeAgentTools, type SessionAgent } from '@agentry/contracts';
import { agentMcpServers } from './agent-mcp-servers.js';

const agent = (
  mcp_servers: SessionAgent['mcp_servers'],
  tools: Parameters<typeof normalizeAgentTools>[0],
): SessionAgent =>
  ({
    id: 'agent_1',
    version: 1,
    model: { id: 'scripted' },
    system: null,
    mcp_servers,
    tools: normalizeAgentTools(tools),
  }) as unknown as SessionAgent;

describe('agentMcpServers', () => {
  it('connects the servers a toolset enables, and offers the enabled tools it names even before listing', () => {
    const { servers, skipped } = agentMcpServers(
      agent(
        [
          { type: 'url', name: 'github', url: 'https://mcp.github.test/mcp' },
          { type: 'url', name: 'off', url: 'https://off.test/mcp' },
          { type: 'url', name: 'mostly-off', url: 'https://mostly-off.test/mcp' },
          { type: 'url', name: 'bad name', url: 'https://bad.test/mcp' },
          { type: 'url', name: 'unreferenced', url: 'https://unreferenced.test/mcp' },
        ],
        [
          {
            type: 'mcp_toolset',
            mcp_server_name: 'github',
            configs: [{ name: 'search' }, { name: 'delete_repo', enabled: false }],
          },
          { type: 'mcp_toolset', mcp_server_name: 'off', default_config: { enabled: false } },
          {
            type: 'mcp_toolset',
            mcp_server_name: 'mostly-off',
            default_config: { enabled: false },
            configs: [{ name: 'read', enabled: true }],
          },
          { type: 'mcp_toolset', mcp_server_name: 'bad name' },
        ],
      ),
    );
    expect(servers).toEqual([
      { name: 'github', url: 'https://mcp.github.test/mcp', namedTools: ['search'] },
      { name: 'mostly-off', url: 'https://mostly-off.test/mcp', namedTools: ['read'] },
    ]);
    expect(skipped).toEqual([
      { name: 'bad name', reason: expect.stringContaining('letters, digits') as unknown },
    ]);
  });

  it('has nothing to connect for an agent without MCP servers', () => {
    expect(agentMcpServers(agent([], [{ type: 'agent_toolset_20260401' }])).servers).toEqual([]);
  });
});
