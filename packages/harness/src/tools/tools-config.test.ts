import type { WorkspaceFs } from '@agentry/workspace';
import { workspaceWith } from '../loop/run-collect.fixture.js';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { silentLogger, type Logger } from '../loop/ports.js';
import type { ModelPort, ModelRequest } from '../model/model-port.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from './tool.js';
import { loadToolsConfig } from './tools-config.js';

function platformTool(name: string): HarnessTool {
  return {
    name,
    description: name,
    inputSchema: { type: 'object' },
    idempotent: true,
    toolset: 'platform',
    execute: () => Promise.resolve({ status: 'ok', content: [] }),
  };
}

async function offeredTools(
  fs: WorkspaceFs,
  extra: Partial<Parameters<typeof createHarness>[0]> = {},
): Promise<string[]> {
  const requests: ModelRequest[] = [];
  const inner = new ScriptedModel();
  const model: ModelPort = {
    id: 'rec',
    contextWindow: inner.contextWindow,
    stream: (r, s) => (requests.push(r), inner.stream(r, s)),
  };
  const harness = createHarness({ model, workspace: fs, disableSessionPersistence: true, ...extra });
  for await (const _ of harness.run({ conversation: [], text: 'hi' }, { sessionId: 's', agentId: 'a' }))
    void _;
  return (requests[0]!.tools ?? []).map((t) => t.name).sort();
}

describe('tools.json', () => {
  it('an allow list hides other tools but keeps platform tools; deny wins over allow', async () => {
    const fs = await workspaceWith({
      'tools.json': JSON.stringify({ allow: ['read_file', 'write_file'], deny: ['write_file'] }),
    });
    expect(await offeredTools(fs, { tools: [platformTool('session_search')] })).toEqual([
      'read_file',
      'session_search',
    ]);
  });

  it('merges with code configuration, deny from either side winning', async () => {
    const fs = await workspaceWith({ 'tools.json': JSON.stringify({ allow: ['read_file', 'list_files'] }) });
    const tools = await offeredTools(fs, { toolsConfig: { allow: ['grep_files'], deny: ['list_files'] } });
    expect(tools).toEqual(['grep_files', 'read_file']);
    // deny also removes platform tools
    const denied = await offeredTools(await workspaceWith({ 'tools.json': '{"deny":["session_search"]}' }), {
      tools: [platformTool('session_search')],
    });
    expect(denied).not.toContain('session_search');
  });

  it('is ignored with disableToolsConfig, and a broken file falls back to the default tools', async () => {
    const fs = await workspaceWith({ 'tools.json': JSON.stringify({ allow: ['read_file'] }) });
    expect((await offeredTools(fs, { disableToolsConfig: true })).length).toBeGreaterThan(1);
    const broken = await workspaceWith({ 'tools.json': '{ not json' });
    expect(await offeredTools(broken)).toContain('write_file');
  });

  it('substitutes ${VAR} from the configured env map only; unset variables become empty with a warning', async () => {
    process.env.AGENTRY_TEST_LEAK = 'from-process';
    const warnings: unknown[] = [];
    const logger: Logger = { ...silentLogger, warn: (msg, fields) => warnings.push({ msg, fields }) };
    const fs = await workspaceWith({
      'tools.json': JSON.stringify({
        mcpServers: {
          gh: {
            transport: 'http',
            url: 'http://127.0.0.1:1/${HOST_PATH}',
            headers: { token: '${GH_TOKEN}', leak: '${AGENTRY_TEST_LEAK}' },
          },
        },
      }),
    });
    const config = await loadToolsConfig(fs, { GH_TOKEN: 'secret-1', HOST_PATH: 'mcp' }, logger);
    expect(config.mcpServers?.gh).toMatchObject({
      url: 'http://127.0.0.1:1/mcp',
      headers: { token: 'secret-1', leak: '' },
    });
    expect(warnings).toEqual([
      { msg: 'tools.json references an unset variable', fields: { name: 'AGENTRY_TEST_LEAK' } },
    ]);
    delete process.env.AGENTRY_TEST_LEAK;
  });

  it('passes configured MCP servers to the mcpTools hook', async () => {
    const seen: string[] = [];
    const fs = await workspaceWith({
      'tools.json': JSON.stringify({ mcpServers: { docs: { transport: 'stdio', command: 'x' } } }),
    });
    const tools = await offeredTools(fs, {
      hooks: {
        mcpTools: (servers) => {
          seen.push(...Object.keys(servers));
          return Promise.resolve([
            {
              name: 'mcp__docs__search',
              description: 'd',
              inputSchema: { type: 'object' },
              idempotent: true,
              toolset: 'mcp:docs',
              execute: () => Promise.resolve({ status: 'ok', content: [] }),
            },
          ]);
        },
      },
    });
    expect(seen).toEqual(['docs']);
    expect(tools).toContain('mcp__docs__search');
  });
});
