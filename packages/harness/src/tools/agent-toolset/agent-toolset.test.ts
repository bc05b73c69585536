import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { WorkspaceFs } from '@agentry/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessToolExecutor } from '../tool-executor.js';
import { workspaceWith } from '../../loop/run-collect.fixture.js';
import type { HarnessTool, ToolOutcome } from '../tool.js';
import { AGENT_FILE_TOOLS } from './agent-file.tools.js';
import { AGENT_TOOLSET_SCHEMAS } from './agent-toolset.schemas.js';
import { createAgentWebSearchTool } from './agent-web.tools.js';
import { unavailableBashTool } from './agent-bash.tool.js';

interface SdkTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

const tool = (name: string): HarnessTool => AGENT_FILE_TOOLS.find((t) => t.name === name)!;
const text = (o: ToolOutcome): string =>
  o.status === 'pending' ? '' : o.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
const run = (t: HarnessTool, input: Record<string, unknown>, fs: WorkspaceFs) =>
  inProcessToolExecutor.execute({
    tool: t,
    input,
    context: {
      toolCallId: 't',
      fs,
      signal: new AbortController().signal,
      sessionId: 's',
      agentId: 'a',
      values: {},
    },
  });

describe('agent toolset', () => {
  it('declares the names, descriptions and input schemas of the official SDK toolset', () => {
    const require = createRequire(import.meta.url);
    const sdk = require('@anthropic-ai/sdk/tools/agent-toolset/node') as {
      betaAgentToolset20260401: (ctx: { workdir: string }) => SdkTool[];
    };
    const official = sdk.betaAgentToolset20260401({ workdir: '/nonexistent' });
    for (const twin of official) {
      const ours = AGENT_TOOLSET_SCHEMAS.find((s) => s.name === twin.name)!;
      expect(ours.inputSchema).toEqual(twin.input_schema);
      expect(ours.description).toBe(twin.description);
    }
    expect(AGENT_TOOLSET_SCHEMAS.map((s) => s.name).sort()).toEqual([
      'bash',
      'edit',
      'glob',
      'grep',
      'read',
      'web_fetch',
      'web_search',
      'write',
    ]);
  });

  it('reads, writes and edits by CMA argument names, under /workspace or relative', async () => {
    const fs = await workspaceWith({ 'notes/a.txt': 'one\ntwo\nthree' });
    expect(
      text(await run(tool('read'), { file_path: '/workspace/notes/a.txt', view_range: [2, 3] }, fs)),
    ).toBe('two\nthree');
    expect((await run(tool('write'), { file_path: 'deep/b.txt', content: 'hello' }, fs)).status).toBe('ok');
    expect(await fs.readText('deep/b.txt')).toBe('hello');
    expect(
      (await run(tool('edit'), { file_path: 'deep/b.txt', old_string: 'hello', new_string: 'bye' }, fs))
        .status,
    ).toBe('ok');
    expect(text(await run(tool('grep'), { pattern: 'by+e' }, fs))).toBe('deep/b.txt:1:bye');
    expect(
      text(await run(tool('glob'), { pattern: '**/*.txt' }, fs))
        .split('\n')
        .sort(),
    ).toEqual(['deep/b.txt', 'notes/a.txt']);
  });

  it('answers paths outside the workspace with an error result', async () => {
    const fs = await workspaceWith({ 'a.txt': 'x' });
    for (const [name, input] of [
      ['read', { file_path: '/etc/passwd' }],
      ['read', { file_path: '../../etc/passwd' }],
      ['write', { file_path: '/tmp/x', content: 'x' }],
      ['glob', { pattern: '../*' }],
    ] as const) {
      const outcome = await run(tool(name), input, fs);
      expect(outcome.status).toBe('error');
      expect(text(outcome)).toMatch(/outside|escape|\.\./i);
    }
  });

  it('answers bash with the reason where the environment has no shell', async () => {
    const outcome = await run(
      unavailableBashTool('remote environments have no shell'),
      { command: 'ls' },
      await workspaceWith({}),
    );
    expect(outcome).toMatchObject({ status: 'error', reason: 'unavailable' });
    expect(text(outcome)).toContain('remote environments have no shell');
  });

  describe('web_search', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        const q = new URL(req.url!, 'http://x').searchParams.get('q');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            results: [{ title: `About ${q}`, url: 'https://example.com/a', content: 'A snippet' }],
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('asks the configured search API and lists its results', async () => {
      const outcome = await run(
        createAgentWebSearchTool({ url }),
        { query: 'bubblewrap' },
        await workspaceWith({}),
      );
      expect(outcome.status).toBe('ok');
      expect(text(outcome)).toBe('1. About bubblewrap\n   https://example.com/a\n   A snippet');
    });

    it('says so when no search API is configured', async () => {
      const outcome = await run(createAgentWebSearchTool({}), { query: 'x' }, await workspaceWith({}));
      expect(outcome).toMatchObject({ status: 'error', reason: 'unavailable' });
      expect(text(outcome)).toContain('no search provider is configured');
    });
  });
});
