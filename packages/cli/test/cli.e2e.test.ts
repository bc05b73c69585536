import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { CLI_ENTRY, Terminal } from './terminal.js';

/** Runs the CLI to its end (no terminal) and returns its exit code and output. */
function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const WRITE_NOTE = { name: 'write', input: { file_path: 'note.txt', content: 'hello' } };

/** A created resource: the tests read only its id. */
interface Created {
  id: string;
}

/** What the tests read of a session. */
interface SessionState {
  status: string;
  stop_reason?: { type: string } | null;
}

/** What the tests read of an agent. */
interface AgentVersion {
  version: number;
  system: string;
}

/** What `apply` records of each file it applied: the id of the resource it became. */
type ApplyLock = Record<string, { id: string }>;

describe('the agentry CLI against the running platform', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let env: Record<string, string>;
  let askingAgent: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    const home = mkdtempSync(join(tmpdir(), 'agentry-cli-'));
    env = {
      AGENTRY_URL: platform.gatewayUrl,
      AGENTRY_TOKEN: token,
      AGENTRY_CONFIG: join(home, 'config.json'),
    };
    const script = {
      turns: [
        { match: '^write a note', reply: [{ toolCall: WRITE_NOTE }, 'The note is written.'] },
        {
          match: '^slowly',
          reply: [{ toolCall: WRITE_NOTE }, { delayMs: 3000, text: 'Written, slowly.' }],
        },
        { match: '^again', reply: ['Once more.'] },
      ],
    };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'asks first',
      model: { id: 'scripted', script },
      tools: [
        { type: 'agent_toolset_20260401', default_config: { permission_policy: { type: 'always_ask' } } },
      ],
    });
    askingAgent = agent.body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'remote', config: { type: 'remote' } })
    ).body.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const eventsOf = async (sessionId: string) =>
    (
      await api.get<{ data: { type: string; result?: string; content?: { text?: string }[] }[] }>(
        `/v1/sessions/${sessionId}/events?limit=1000`,
      )
    ).body.data;

  it('chat streams the answer and asks for the approval inline, through a terminal', async () => {
    const terminal = new Terminal(['chat', askingAgent, '--environment', environmentId], env);
    const [, sessionId] = await terminal.waitFor(/session (sesn_\w+)/);
    await terminal.waitFor(/you> /);
    terminal.type('write a note\r');
    await terminal.waitFor(/allow write \{[^}]*"file_path":"note.txt"[^}]*\}\? \[y\/n\]/);
    const mark = terminal.mark;
    terminal.type('y\r');
    await terminal.waitFor(/agent: The note is written\./, 60_000, mark);
    await terminal.waitFor(/you> /, 60_000, mark);
    terminal.type('/quit\r');
    expect(await terminal.exited).toBe(0);
    const events = await eventsOf(sessionId!);
    expect(events.find((e) => e.type === 'user.tool_confirmation')?.result).toBe('allow');
    expect(events.some((e) => e.type === 'agent.tool_result')).toBe(true);
  });

  it('sessions connect attaches, approves and detaches while the session keeps running', async () => {
    const session = await api.post<Created>('/v1/sessions', {
      agent: askingAgent,
      environment_id: environmentId,
    });
    const sessionId = session.body.id;
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'slowly, write a note' }] }],
    });
    await pollUntil('the tool call to wait for approval', async () => {
      const s = (await api.get<SessionState>(`/v1/sessions/${sessionId}`)).body;
      return s.status === 'idle' && s.stop_reason?.type === 'requires_action';
    });
    const terminal = new Terminal(['sessions', 'connect', sessionId], env);
    await terminal.waitFor(/waiting for approval: write/);
    terminal.type('/allow\r');
    await terminal.waitFor(/allowed sevt_\w+/);
    await terminal.waitFor(/\[running\]/);
    // Detach while the model is still working on its (slow) answer.
    terminal.type('\x03');
    await terminal.waitFor(/detached from sesn_\w+; it keeps running/);
    expect(await terminal.exited).toBe(0);
    expect(terminal.screen).not.toContain('Written, slowly.');
    const answered = await pollUntil('the answer after the detach', async () =>
      (await eventsOf(sessionId)).find((e) => e.type === 'agent.message'),
    );
    expect(answered.content?.[0]?.text).toBe('Written, slowly.');
  });

  it('sessions tail resumes after the gateway restarts, without a gap or a duplicate', async () => {
    const plainAgent = (await api.post<Created>('/v1/agents', { name: 'plain', model: 'scripted' })).body.id;
    const session = await api.post<Created>('/v1/sessions', {
      agent: plainAgent,
      environment_id: environmentId,
    });
    const sessionId = session.body.id;
    const send = (text: string) =>
      api.post(`/v1/sessions/${sessionId}/events`, {
        events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
      });
    await send('before the restart');
    const tail = spawn(process.execPath, [CLI_ENTRY, '--json', 'sessions', 'tail', sessionId], {
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { seq: number; type: string });
    tail.stdout.on('data', (c: Buffer) => (out += c.toString()));
    tail.stderr.on('data', (c: Buffer) => (err += c.toString()));
    await pollUntil('the first turn on the tail', () =>
      lines().some((e) => e.type === 'session.status_idle'),
    );
    const gateway = platform.service('gateway');
    await gateway.kill();
    gateway.start();
    await gateway.waitReady(120_000);
    await send('after the restart');
    await pollUntil('the second turn on the tail', () =>
      lines().filter((e) => e.type === 'session.status_idle').length === 2 ? true : undefined,
    );
    tail.kill('SIGINT');
    const seqs = lines().map((e) => e.seq);
    const logged = (await eventsOf(sessionId)).length;
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(seqs.length).toBe(logged);
    expect(err).toMatch(/reconnecting in \d+ ms after event \d+/);
  });

  it('apply creates two agents and an environment, then plans no change, then one update as version 2', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentry-apply-'));
    mkdirSync(join(folder, 'agents'));
    mkdirSync(join(folder, 'environments'));
    const agentFile = (name: string, prompt: string) =>
      `---\nname: ${name}\nmodel: scripted\ntools:\n  - type: agent_toolset_20260401\n---\n${prompt}\n`;
    writeFileSync(join(folder, 'agents', 'writer.md'), agentFile('writer', 'You write.'));
    writeFileSync(join(folder, 'agents', 'reviewer.md'), agentFile('reviewer', 'You review.'));
    writeFileSync(
      join(folder, 'environments', 'workspace.yaml'),
      'name: workspace\nconfig:\n  type: remote\n',
    );

    const first = await run(['apply', folder], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Plan: 3 to create, 0 to update, 0 unchanged.');
    const lock = JSON.parse(readFileSync(join(folder, 'agentry.lock.json'), 'utf8')) as ApplyLock;
    const writerId = lock['agents/writer.md']!.id;
    expect(lock['environments/workspace.yaml']!.id).toMatch(/^env_/);
    expect((await api.get<AgentVersion>(`/v1/agents/${writerId}`)).body.system).toBe('You write.');

    const second = await run(['apply', folder], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Plan: 0 to create, 0 to update, 3 unchanged.');

    writeFileSync(join(folder, 'agents', 'writer.md'), agentFile('writer', 'You write, briefly.'));
    const dry = await run(['apply', folder, '--dry-run'], env);
    expect(dry.stdout).toContain('Plan: 0 to create, 1 to update, 2 unchanged.');
    expect(dry.stdout).toMatch(
      /~ update agent agents\/writer.md[\s\S]*system:[\s\S]*- You write\.\n[\s\S]*\+ You write, briefly\./,
    );
    expect((await api.get<AgentVersion>(`/v1/agents/${writerId}`)).body.version).toBe(1);

    const third = await run(['apply', folder], env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain(`updated agents/writer.md → ${writerId} version 2`);
    const writer = (await api.get<AgentVersion>(`/v1/agents/${writerId}`)).body;
    expect([writer.version, writer.system]).toEqual([2, 'You write, briefly.']);
    expect((await run(['apply', folder], env)).stdout).toContain(
      'Plan: 0 to create, 0 to update, 3 unchanged.',
    );
  });

  it('exits with codes scripts can rely on', async () => {
    expect((await run(['agents', 'get', 'agent_missing'], env)).code).toBe(4);
    expect((await run(['agents', 'list'], { ...env, AGENTRY_TOKEN: 'bad' })).code).toBe(3);
    expect((await run(['agents', 'frobnicate'], env)).code).toBe(2);
    const listed = await run(['--json', 'agents', 'list'], env);
    expect((JSON.parse(listed.stdout) as Created[]).map((a) => a.id)).toContain(askingAgent);
  });

  it("worker runs the self-hosted worker: it takes the session's tool call, and stops on SIGTERM", async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'writes on the laptop',
      model: { id: 'scripted', script: { turns: [{ reply: [{ toolCall: WRITE_NOTE }, 'Noted.'] }] } },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const laptop = await api.post<Created>('/v1/environments', {
      name: 'laptop',
      config: { type: 'self_hosted' },
    });
    const key = await api.post<{ key: string }>(`/v1/environments/${laptop.body.id}/keys`, {});
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: laptop.body.id,
    });
    const workdir = mkdtempSync(join(tmpdir(), 'agentry-cli-worker-'));
    const worker = spawn(
      process.execPath,
      [
        CLI_ENTRY,
        'worker',
        '--',
        '--gateway-url',
        platform.gatewayUrl,
        '--environment-id',
        laptop.body.id,
        '--workdir',
        workdir,
        '--worker-id',
        'cli-laptop',
        '--sandbox',
        'none',
      ],
      { env: { ...process.env, ...env, AGENTRY_ENVIRONMENT_KEY: key.body.key }, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    await api.post(`/v1/sessions/${session.body.id}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'write a note' }] }],
    });
    await pollUntil(
      'the turn to end with the note written by the worker',
      async () => {
        const s = (await api.get<SessionState>(`/v1/sessions/${session.body.id}`)).body;
        return s.status === 'idle' && s.stop_reason?.type === 'end_turn';
      },
      90_000,
    );
    expect(readFileSync(join(workdir, 'note.txt'), 'utf8')).toBe('hello');
    worker.kill('SIGTERM');
    // The CLI hands the signal to the worker and exits with the worker's own code.
    expect(await exited).toBe(0);
  });
});
