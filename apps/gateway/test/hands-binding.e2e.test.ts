import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn, waitFor } from './outage-fixture.js';
import type { Created, Page, SessionState } from './wire-types.js';

const TOOL_TIMEOUT_MS = 20_000;

interface ToolEvent {
  type: string;
  id: string;
  name?: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: Array<{ text?: string }>;
}

/** Twenty calls alternating write, bash and read, each reading what an earlier one wrote. */
function fillCalls(): Array<{ name: string; input: Record<string, unknown> }> {
  return Array.from({ length: 20 }, (_, i) => {
    if (i % 3 === 0)
      return { name: 'write', input: { file_path: `notes/w${i}.txt`, content: `written ${i}` } };
    if (i % 3 === 1)
      return {
        name: 'bash',
        input: { command: `cat notes/w${i - 1}.txt && echo "shell ${i}" > notes/b${i}.txt` },
      };
    return { name: 'read', input: { file_path: `notes/b${i - 1}.txt` } };
  });
}

/** What each of `fillCalls` must answer when every call sees the same files. */
function expectedFill(i: number): RegExp {
  if (i % 3 === 0) return /./;
  if (i % 3 === 1) return new RegExp(`written ${i - 1}`);
  return new RegExp(`shell ${i - 1}`);
}

const text = (e: ToolEvent) => (e.content ?? []).map((c) => c.text ?? '').join('');

/**
 * A session's Hands with two worker replicas, each on its own disk: the session is bound to one worker,
 * its files persist outside it, and a worker killed mid-call neither loses the files nor runs the call twice.
 */
describe('the Hands: one durable filesystem per session across worker replicas', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  const disks = [0, 1].map((i) =>
    join(repoRoot(), 'test-results', `hands-binding-${randomBytes(4).toString('hex')}`, `worker-${i}`),
  );

  beforeAll(async () => {
    for (const disk of disks) mkdirSync(disk, { recursive: true });
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      replicas: { worker: 2 },
      replicaEnv: (name, index): Record<string, string> =>
        name === 'worker' ? { AGENTRY_WORKDIR_ROOT: disks[index]! } : {},
      env: {
        AGENTRY_TOOL_TIMEOUT_MS: String(TOOL_TIMEOUT_MS),
        AGENTRY_HANDS_LIVENESS_MS: '3000',
        AGENTRY_HANDS_HEARTBEAT_MS: '500',
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const holders = (sessionId: string) =>
    disks.flatMap((disk, index) => (hasSession(disk, sessionId) ? [index] : []));

  async function toolEvents(sessionId: string): Promise<ToolEvent[]> {
    const listed = await api.get<Page<ToolEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`);
    return listed.body.data.filter((e) => e.type === 'agent.tool_use' || e.type === 'agent.tool_result');
  }

  it('keeps one filesystem through 20 calls, and survives kill -9 of the worker holding it', async () => {
    const script = {
      turns: [
        { match: '^fill$', reply: [...fillCalls().map((toolCall) => ({ toolCall })), 'filled'] },
        {
          match: '^crash$',
          reply: [
            {
              toolCall: {
                name: 'bash',
                input: {
                  command: 'echo started > notes/started.txt; sleep 30; echo finished > notes/finished.txt',
                },
              },
            },
            { toolCall: { name: 'read', input: { file_path: 'notes/w0.txt' } } },
            {
              toolCall: {
                name: 'bash',
                input: { command: 'cat notes/b1.txt notes/w18.txt; ls notes | wc -l' },
              },
            },
            'recovered',
          ],
        },
      ],
    };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'binder',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local-binding',
      config: { type: 'local' },
    });
    const created = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    const sessionId = created.body.id;

    await completeTurn(api, sessionId, 'fill', 120_000);
    const fill = (await toolEvents(sessionId)).filter((e) => e.type === 'agent.tool_result');
    expect(fill).toHaveLength(20);
    fill.forEach((result, i) => {
      expect(result.is_error, `call ${i}: ${text(result)}`).toBe(false);
      expect(text(result), `call ${i}`).toMatch(expectedFill(i));
    });
    const [holder, ...others] = holders(sessionId);
    expect(others, 'one worker holds the session').toEqual([]);
    const survivor = 1 - holder!;

    const before = (await toolEvents(sessionId)).length;
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'crash' }] }],
    });
    // The sleep is running on the holder once the file it writes first is in its workspace.
    await waitFor(
      () => Promise.resolve(hasFile(disks[holder!]!, sessionId, 'notes/started.txt')),
      Boolean,
      60_000,
      'the sleep to start',
    );
    await platform.replicasOf('worker')[holder!]!.kill('SIGKILL');

    const crashed = await waitFor(
      async () => (await toolEvents(sessionId)).slice(before).find((e) => e.type === 'agent.tool_result'),
      (e) => e !== undefined,
      TOOL_TIMEOUT_MS,
      'the result of the interrupted bash, before its timeout',
    );
    expect(crashed!.is_error).toBe(true);
    // Answered because the worker died, not because the call ran into its timeout.
    expect(text(crashed!)).toMatch(/stopped before answering.*may or may not have run/);

    await waitFor(
      async () => (await api.get<SessionState>(`/v1/sessions/${sessionId}`)).body?.status,
      (s) => s === 'idle',
      90_000,
      'session status',
    );
    const after = (await toolEvents(sessionId)).slice(before).filter((e) => e.type === 'agent.tool_result');
    expect(after).toHaveLength(3);
    expect(after[1]!.is_error, text(after[1]!)).toBe(false);
    expect(text(after[1]!)).toMatch(/written 0/);
    expect(after[2]!.is_error, text(after[2]!)).toBe(false);
    expect(text(after[2]!)).toMatch(/shell 1[\s\S]*written 18/);
    expect(holders(sessionId)).toContain(survivor);
    expect(hasFile(disks[survivor]!, sessionId, 'notes/w18.txt')).toBe(true);
    // Never run twice: the interrupted command did not run again on the survivor.
    expect(hasFile(disks[survivor]!, sessionId, 'notes/finished.txt')).toBe(false);
  }, 400_000);
});

function sessionDirs(disk: string, sessionId: string): string[] {
  const out = execFileSync('find', [disk, '-maxdepth', '2', '-type', 'd', '-name', sessionId], {
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean);
}

function hasSession(disk: string, sessionId: string): boolean {
  return sessionDirs(disk, sessionId).length > 0;
}

function hasFile(disk: string, sessionId: string, path: string): boolean {
  return sessionDirs(disk, sessionId).some((dir) => existsSync(join(dir, 'workspace', path)));
}
