import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  repoRoot,
  settleWithin,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const NOTE = { file_path: 'notes/hello.txt', content: 'written on the customer machine' };

/** write a file, then read it back through bash (and say where bash runs), then answer. */
const WRITE_THEN_BASH = {
  turns: [
    {
      reply: [
        { toolCall: { name: 'write', input: NOTE } },
        { toolCall: { name: 'bash', input: { command: `cat ${NOTE.file_path}; echo; echo "cwd=$(pwd)"` } } },
        'The note reads back.',
      ],
    },
  ],
};
/** A sleep no other test runs, so its process can be looked for on the host. */
const SLEEP = 'sleep 67.25';
const SLEEPER = { turns: [{ reply: [{ toolCall: { name: 'bash', input: { command: SLEEP } } }, 'never'] }] };

const sleeping = (): boolean =>
  readdirSync('/proc').some((pid) => {
    try {
      return (
        /^\d+$/.test(pid) &&
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() === SLEEP
      );
    } catch {
      return false;
    }
  });

/** A created resource: the tests read only its id. */
interface Created {
  id: string;
}

/** An event of a session's log, with the fields these tests read. */
interface LoggedEvent {
  type: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: Array<{ type: string; text?: string }>;
}

interface SessionState {
  status: string;
  stop_reason?: { type: string } | null;
}

interface WorkItem {
  id: string;
  state: string;
  data: { id: string };
}

const textOf = (event: LoggedEvent): string =>
  (event.content ?? []).map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');

describe('apps/worker in self-hosted mode: the worker of a self_hosted environment on the customer machine', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  const dirs: string[] = [];
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await platform?.stop();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function selfHostedSession(
    script: unknown,
  ): Promise<{ environmentId: string; key: string; sessionId: string }> {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'customer hands',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: `laptop-${Date.now()}`,
      config: { type: 'self_hosted' },
    });
    const key = await api.post<{ key: string }>(`/v1/environments/${environment.body.id}/keys`, {});
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    expect(session.status).toBe(200);
    return { environmentId: environment.body.id, key: key.body.key, sessionId: session.body.id };
  }

  /**
   * The worker's own process, started the way a customer would: flags for the target, the key in the
   * environment, and no reachable Postgres, NATS or Redis.
   */
  function startWorker(
    target: { environmentId: string; key: string },
    flags: string[],
  ): { dir: string; process: ChildProcess } {
    const dir = mkdtempSync(join(tmpdir(), 'agentry-selfhosted-'));
    dirs.push(dir);
    const dist = join(repoRoot(), 'apps', 'worker', 'dist', 'main.js');
    const child = spawn(
      process.execPath,
      [
        dist,
        '--self-hosted',
        '--gateway-url',
        platform.gatewayUrl,
        '--environment-id',
        target.environmentId,
        '--workdir',
        dir,
        '--worker-id',
        'customer-box',
        ...flags,
      ],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          AGENTRY_ENVIRONMENT_KEY: target.key,
          AGENTRY_SANDBOX_SOCKET_DIR: join(dir, 's'),
          DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
          REDIS_URL: 'redis://127.0.0.1:1',
          NATS_URL: 'nats://127.0.0.1:1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const log = createWriteStream(join(dir, 'worker.log'));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    workers.push(child);
    return { dir, process: child };
  }

  const say = (sessionId: string, text: string) =>
    api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });
  const events = async (sessionId: string): Promise<LoggedEvent[]> =>
    (await api.get<{ data: LoggedEvent[] }>(`/v1/sessions/${sessionId}/events?limit=1000`)).body.data;
  const endTurn = (sessionId: string) =>
    pollUntil(
      `session ${sessionId} to end its turn`,
      async () => {
        const s = await api.get<SessionState>(`/v1/sessions/${sessionId}`);
        return s.body.status === 'idle' && s.body.stop_reason?.type === 'end_turn' ? s.body : undefined;
      },
      90_000,
    );

  async function writeThenBash(sandboxFlags: string[]): Promise<{ dir: string; bashOutput: string }> {
    const target = await selfHostedSession(WRITE_THEN_BASH);
    const { dir } = startWorker(target, sandboxFlags);
    await say(target.sessionId, 'write the note and cat it');
    await endTurn(target.sessionId);
    const log = await events(target.sessionId);
    const uses = log.filter((e) => e.type === 'agent.tool_use');
    const results = log.filter((e) => e.type === 'user.tool_result');
    expect(uses.map((e) => e.name)).toEqual(['write', 'bash']);
    expect(results.map((e) => e.tool_use_id)).toEqual(uses.map((e) => e.id));
    expect(results.map((e) => Boolean(e.is_error))).toEqual([false, false]);
    expect(textOf(log.findLast((e) => e.type === 'agent.message')!)).toBe('The note reads back.');
    return { dir, bashOutput: textOf(results[1]!) };
  }

  it('completes a write + bash turn with the tools in its own bubblewrap sandbox', async () => {
    const { dir, bashOutput } = await writeThenBash([]);
    expect(bashOutput).toContain(NOTE.content);
    // bash ran inside the sandbox: the workspace is mounted at /workspace, not the host directory.
    expect(bashOutput).toContain('cwd=/workspace');
    expect(readFileSync(join(dir, 'workspace', NOTE.file_path), 'utf8')).toBe(NOTE.content);
  });

  it('runs the tools in a plain directory when asked (--sandbox none)', async () => {
    const { dir, bashOutput } = await writeThenBash(['--sandbox', 'none']);
    expect(bashOutput).toContain(NOTE.content);
    expect(bashOutput).not.toContain('cwd=/workspace');
    expect(readFileSync(join(dir, NOTE.file_path), 'utf8')).toBe(NOTE.content);
    expect(existsSync(join(dir, 'workspace'))).toBe(false);
  });

  it('shows as polling, and on SIGTERM kills the running bash, stops its work item and exits', async () => {
    const target = await selfHostedSession(SLEEPER);
    const worker = startWorker(target, []);
    await say(target.sessionId, 'sleep');
    const item = await pollUntil(
      'the work item to be claimed',
      async () => {
        const work = await api.get<{ data: WorkItem[] }>(`/v1/environments/${target.environmentId}/work`);
        return work.body.data.find((w) => w.data.id === target.sessionId && w.state === 'active');
      },
      90_000,
    );
    const status = async () =>
      (await api.get<{ workerHeartbeats?: Record<string, unknown> }>(`/api/hands/status`)).body;
    await pollUntil(
      'the worker to show as polling',
      async () => (await status()).workerHeartbeats?.['customer-box'],
      90_000,
    );
    await pollUntil('the sleep to run in the sandbox', () => sleeping(), 90_000);
    const exited = new Promise<number | null>((resolve) =>
      worker.process.once('exit', (code) => resolve(code)),
    );
    worker.process.kill('SIGTERM');
    expect(await settleWithin(30_000, 'the worker to exit on SIGTERM', exited)).toBe(0);
    expect(sleeping()).toBe(false);
    await pollUntil(
      'the work item to stop',
      async () => {
        const work = await api.get<WorkItem>(`/v1/environments/${target.environmentId}/work/${item.id}`);
        return work.body.state === 'stopped' ? work.body : undefined;
      },
      90_000,
    );
  });
});
