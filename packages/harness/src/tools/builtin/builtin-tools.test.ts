import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecOptions, ExecResult, SandboxFs, WorkspaceFs } from '@agentry/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from '../../harness.js';
import { collectRun, workspaceWith } from '../../loop/run-collect.fixture.js';
import type { ModelPort, ModelRequest } from '../../model/model-port.js';
import { ScriptedModel } from '../../scripted/scripted-model.js';
import type { ToolContext, ToolOutcome } from '../tool.js';
import { globFilesTool, grepFilesTool, readFileTool } from './file-read.tools.js';
import { editFileTool, writeFileTool } from './file-write.tools.js';
import { createWebFetchTool } from './web-fetch.tool.js';

function ctx(fs: WorkspaceFs): ToolContext {
  return {
    toolCallId: 'sevt_t',
    fs,
    signal: new AbortController().signal,
    sessionId: 's',
    agentId: 'a',
    values: {},
  };
}
const text = (o: ToolOutcome): string =>
  o.status === 'pending' ? '' : o.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('file tools', () => {
  it('read_file pages with offset/limit and numbers lines', async () => {
    const fs = await workspaceWith({ 'a.txt': 'one\ntwo\nthree\nfour' });
    const out = text(await readFileTool.execute({ path: 'a.txt', offset: 1, limit: 2 }, ctx(fs)));
    expect(out).toBe('     2\ttwo\n     3\tthree');
    expect(readFileTool.idempotent).toBe(true);
  });

  it('edit_file requires a unique match unless replace_all', async () => {
    const fs = await workspaceWith({ 'a.txt': 'x=1; y=1;' });
    const ambiguous = await editFileTool.execute(
      { path: 'a.txt', old_string: '=1', new_string: '=2' },
      ctx(fs),
    );
    expect(ambiguous.status).toBe('error');
    expect(await fs.readText('a.txt')).toBe('x=1; y=1;');
    await editFileTool.execute({ path: 'a.txt', old_string: 'x=1', new_string: 'x=3' }, ctx(fs));
    expect(await fs.readText('a.txt')).toBe('x=3; y=1;');
    await editFileTool.execute(
      { path: 'a.txt', old_string: '=', new_string: ':', replace_all: true },
      ctx(fs),
    );
    expect(await fs.readText('a.txt')).toBe('x:3; y:1;');
    expect(
      (await editFileTool.execute({ path: 'a.txt', old_string: 'zzz', new_string: '' }, ctx(fs))).status,
    ).toBe('error');
    expect(editFileTool.idempotent).toBe(false);
  });

  it('write_file creates files, grep_files searches literally, glob_files lists files', async () => {
    const fs = await workspaceWith();
    await writeFileTool.execute({ path: 'src/a.ts', content: 'const a = 1 + 1;\nconst b = (2);' }, ctx(fs));
    expect(await fs.readText('src/a.ts')).toContain('const b');
    expect(text(await grepFilesTool.execute({ pattern: '(2)' }, ctx(fs)))).toBe('src/a.ts:2: const b = (2);');
    expect(text(await globFilesTool.execute({ pattern: '**/*.ts' }, ctx(fs)))).toContain('src/a.ts');
    await expect(writeFileTool.execute({ content: 'x' }, ctx(fs))).rejects.toThrow(/path/);
  });
});

describe('web_fetch', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') {
        res.setHeader('content-type', 'text/html');
        res.end(
          '<html><head><style>p{}</style><script>evil()</script></head><body><h1>Title</h1><p>Hello &amp; welcome</p></body></html>',
        );
      } else if (req.url === '/big') {
        res.setHeader('content-type', 'text/plain');
        res.end('x'.repeat(10_000));
      } else if (req.url === '/slow') {
        // Never answers: only the tool's timeout ends the request (afterAll closes the connection).
      } else {
        res.statusCode = 404;
        res.end('missing');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('converts HTML to text, caps size, and times out', async () => {
    // The test server listens on loopback, which only an installation that allows private networks reaches.
    const tool = createWebFetchTool({ maxBytes: 1_000, timeoutMs: 5_000, allowPrivateNetworks: true });
    const impatient = createWebFetchTool({ timeoutMs: 300, allowPrivateNetworks: true });
    const fs = await workspaceWith();
    const page = text(await tool.execute({ url: `${base}/page` }, ctx(fs)));
    expect(page).toContain('Title');
    expect(page).toContain('Hello & welcome');
    expect(page).not.toContain('evil');
    expect(page).not.toContain('<p>');
    const big = await tool.execute({ url: `${base}/big`, max_chars: 50 }, ctx(fs));
    expect(text(big)).toContain('(truncated)');
    expect(text(big).length).toBeLessThan(200);
    expect(await impatient.execute({ url: `${base}/slow` }, ctx(fs))).toMatchObject({
      status: 'error',
      reason: 'timeout',
    });
    expect(await tool.execute({ url: `${base}/nope` }, ctx(fs))).toMatchObject({
      status: 'error',
      reason: 'http_error',
    });
    expect(await tool.execute({ url: 'file:///etc/passwd' }, ctx(fs))).toMatchObject({
      status: 'error',
      reason: 'invalid_url',
    });
  });
});

describe('tool registration', () => {
  async function toolNames(workspace: WorkspaceFs): Promise<string[]> {
    const requests: ModelRequest[] = [];
    const inner = new ScriptedModel();
    const model: ModelPort = {
      id: 'rec',
      contextWindow: inner.contextWindow,
      stream: (r, s) => (requests.push(r), inner.stream(r, s)),
    };
    await collectRun(createHarness({ model, workspace, disableSessionPersistence: true }), {
      conversation: [],
      text: 'hi',
    });
    return (requests[0]!.tools ?? []).map((t) => t.name);
  }

  it('registers execute only when the workspace is a sandbox that can exec', async () => {
    expect(await toolNames(await workspaceWith())).not.toContain('execute');
    const sandbox = Object.assign(await workspaceWith(), {
      exec: (command: string, _o?: ExecOptions): Promise<ExecResult> =>
        Promise.resolve({
          exitCode: 0,
          stdout: `ran ${command}`,
          stderr: '',
          timedOut: false,
          aborted: false,
          truncated: false,
          durationMs: 1,
        }),
      dispose: async () => {},
    }) satisfies SandboxFs;
    const names = await toolNames(sandbox);
    const script = {
      turns: [{ reply: [{ toolCall: { name: 'execute', input: { command: 'ls -la' } } }, 'listed'] }],
    };
    const { end } = await collectRun(
      createHarness({
        model: new ScriptedModel({ script }),
        workspace: sandbox,
        disableSessionPersistence: true,
      }),
      { conversation: [], text: 'ls' },
    );
    expect(JSON.stringify(end.conversation.find((m) => m.role === 'tool')?.content)).toContain('ran ls -la');
    expect(names).toEqual(
      expect.arrayContaining([
        'read_file',
        'write_file',
        'edit_file',
        'list_files',
        'grep_files',
        'glob_files',
        'execute',
        'web_fetch',
        'plan_write',
      ]),
    );
  });

  it('plan_write stores the plan in plans/PLAN.md and returns it in run.end', async () => {
    const fs = await workspaceWith();
    const script = {
      turns: [
        { reply: [{ toolCall: { name: 'plan_write', input: { content: '- [ ] step one' } } }, 'planned'] },
      ],
    };
    const { end } = await collectRun(
      createHarness({ model: new ScriptedModel({ script }), workspace: fs, planDir: 'work/plans' }),
      { conversation: [], text: 'plan' },
    );
    expect(await fs.readText('work/plans/PLAN.md')).toBe('- [ ] step one');
    expect(end.plan).toEqual({ path: 'work/plans/PLAN.md', content: '- [ ] step one' });
  });
});
