import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  letExpire,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn, waitFor } from './outage-fixture.js';
import type { Created, Page, SessionState } from './wire-types.js';

interface ToolEvent {
  type: string;
  is_error?: boolean;
  content?: Array<{ text?: string }>;
}

const text = (e: ToolEvent) => (e.content ?? []).map((c) => c.text ?? '').join('');
const BIG_MIB = 100;
/** A worker is dead to the Brain this long after its last heartbeat (roomy: the machine may be loaded). */
const LIVENESS_MS = 6_000;
/** After this a killed worker is no longer bound to. */
const LIVENESS_LAPSE_MS = LIVENESS_MS + 500;

/**
 * A session's durable Hands workspace with two worker replicas on their own disks: only the worker holding
 * the session may save it (a frozen one that wakes up late cannot), it moves exactly (modes, symlinks, empty
 * directories, a 100 MiB file, the shell's cwd and variables), and a deleted session leaves nothing behind.
 */
describe("the Hands' durable workspace across worker replicas", () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let environmentId: string;
  const disks = [0, 1].map((i) =>
    join(repoRoot(), 'test-results', `hands-durable-${randomBytes(4).toString('hex')}`, `worker-${i}`),
  );
  const workers = () => platform.replicasOf('worker');
  const workerLog = (index: number) =>
    readFileSync(join(dirname(platform.workdirRoot), index === 0 ? 'worker.log' : 'worker-2.log'), 'utf8');

  beforeAll(async () => {
    for (const disk of disks) mkdirSync(disk, { recursive: true });
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      replicas: { worker: 2 },
      replicaEnv: (name, index): Record<string, string> =>
        name === 'worker' ? { AGENTRY_WORKDIR_ROOT: disks[index]! } : {},
      env: {
        AGENTRY_TOOL_TIMEOUT_MS: '60000',
        AGENTRY_HANDS_LIVENESS_MS: String(LIVENESS_MS),
        AGENTRY_HANDS_HEARTBEAT_MS: '500',
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const environment = await api.post<Created>('/v1/environments', {
      name: 'durable',
      config: { type: 'local' },
    });
    environmentId = environment.body.id;
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers() ?? []) if (worker.pid) process.kill(worker.pid, 'SIGCONT');
    await platform?.stop();
    await db?.drop();
  });

  async function openSession(script: unknown): Promise<string> {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'durable',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    const created = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environmentId,
    });
    return created.body.id;
  }

  async function toolResults(sessionId: string): Promise<ToolEvent[]> {
    const listed = await api.get<Page<ToolEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`);
    return listed.body.data.filter((e) => e.type === 'agent.tool_result');
  }

  const holders = (sessionId: string) => disks.flatMap((disk, i) => (sessionDir(disk, sessionId) ? [i] : []));
  const idle = (sessionId: string) =>
    waitFor(
      async () => (await api.get<SessionState>(`/v1/sessions/${sessionId}`)).body?.status,
      (s) => s === 'idle',
      90_000,
      'the session to be idle',
    );

  /** The durable copy's content of a small file of the session. */
  const storedText = async (sessionId: string, path: string) => {
    const rows = await db.prisma.$queryRawUnsafe<Array<{ content: Buffer | null }>>(
      `SELECT content FROM hands_workspace_files WHERE root LIKE $1 AND path = $2`,
      `%/hands/sessions/${sessionId}`,
      path,
    );
    return rows[0]?.content ? Buffer.from(rows[0].content).toString('utf8') : null;
  };

  let fencedSession = '';
  let movedSession = '';
  let killedIndex = -1;

  it('never lets a worker that was frozen past its liveness overwrite what its successor wrote', async () => {
    fencedSession = await openSession({
      turns: [
        { match: '^warm up$', reply: [{ toolCall: { name: 'bash', input: { command: 'true' } } }, 'warm'] },
        {
          match: '^first$',
          reply: [
            {
              toolCall: {
                name: 'bash',
                input: { command: `echo first > state.txt; sleep ${(LIVENESS_MS * 2) / 1000}` },
              },
            },
            'a',
          ],
        },
        {
          match: '^second$',
          reply: [{ toolCall: { name: 'write', input: { file_path: 'state.txt', content: 'second' } } }, 'b'],
        },
        { match: '^third$', reply: [{ toolCall: { name: 'read', input: { file_path: 'state.txt' } } }, 'c'] },
      ],
    });
    // The session's sandbox is open before the call that is frozen, so nothing slow happens around it.
    await completeTurn(api, fencedSession, 'warm up', 120_000);
    await api.post(`/v1/sessions/${fencedSession}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'first' }] }],
    });
    const frozen = await waitFor(
      () =>
        Promise.resolve(
          disks.findIndex((disk) =>
            existsSync(join(sessionDir(disk, fencedSession) ?? '/-', 'workspace/state.txt')),
          ),
        ),
      (i) => i >= 0,
      60_000,
      'the bash call to start',
    );
    const frozenPid = workers()[frozen]!.pid!;
    process.kill(frozenPid, 'SIGSTOP');
    try {
      await idle(fencedSession);
      expect(text((await toolResults(fencedSession))[1]!)).toMatch(/stopped before answering/);
      await completeTurn(api, fencedSession, 'second', 60_000);
      const written = (await toolResults(fencedSession))[2]!;
      expect(written.is_error, text(written)).toBe(false);
      expect(holders(fencedSession)).toContain(1 - frozen);
    } finally {
      process.kill(frozenPid, 'SIGCONT');
    }
    // Woken, the frozen worker finishes its call and tries to save its stale file: refused and logged (or,
    // were it not fenced, the stored content would change).
    const saveTried = await waitFor(
      async () => ({
        refused: workerLog(frozen).includes('session workspace save refused'),
        stored: await storedText(fencedSession, 'state.txt'),
      }),
      (seen) => seen.refused || seen.stored !== 'second',
      60_000,
      'the woken worker to try its save',
    );
    await idle(fencedSession);
    killedIndex = 1 - frozen;
    await workers()[killedIndex]!.kill('SIGKILL');
    await letExpire(LIVENESS_LAPSE_MS);
    await completeTurn(api, fencedSession, 'third', 60_000);
    const read = (await toolResults(fencedSession))[3]!;
    expect(read.is_error, text(read)).toBe(false);
    expect(text(read)).toMatch(/second/);
    expect(text(read)).not.toMatch(/first/);
    expect(saveTried.refused).toBe(true);
    // Back for the tests that follow (its directory of this session stays on its disk).
    workers()[killedIndex]!.start();
    await workers()[killedIndex]!.waitReady(120_000);
  }, 400_000);

  it('moves the workspace exactly: modes, symlinks, empty directories, a 100 MiB file, cwd and env', async () => {
    const setUp = [
      'mkdir -p scripts sub/deeper empty/inner',
      `printf '#!/bin/sh\\necho script ran\\n' > scripts/run.sh && chmod 755 scripts/run.sh`,
      'ln -s scripts/run.sh run-link',
      `head -c ${BIG_MIB * 1024 * 1024} /dev/urandom > big.bin && sha256sum big.bin`,
      'cd sub/deeper && export KEPT_VAR=kept-value',
    ].join(' && ');
    const check = [
      'pwd',
      'echo "var=$KEPT_VAR"',
      '/workspace/scripts/run.sh',
      '/workspace/run-link',
      'test -d /workspace/empty/inner && echo empty-kept',
      'sha256sum /workspace/big.bin',
    ].join('; ');
    movedSession = await openSession({
      turns: [
        { match: '^set up$', reply: [{ toolCall: { name: 'bash', input: { command: setUp } } }, 'set'] },
        { match: '^check$', reply: [{ toolCall: { name: 'bash', input: { command: check } } }, 'checked'] },
      ],
    });
    await completeTurn(api, movedSession, 'set up', 120_000);
    const made = (await toolResults(movedSession))[0]!;
    expect(made.is_error, text(made)).toBe(false);
    const hash = /([0-9a-f]{64})\s+big\.bin/.exec(text(made))?.[1];
    expect(hash).toBeDefined();
    const [holder] = holders(movedSession);
    killedIndex = holder!;
    await workers()[holder!]!.kill('SIGKILL');
    await letExpire(LIVENESS_LAPSE_MS);

    await completeTurn(api, movedSession, 'check', 180_000);
    const checked = (await toolResults(movedSession))[1]!;
    const out = text(checked);
    expect(checked.is_error, out).toBe(false);
    expect(out).toMatch(/^\[sandbox replaced\]/);
    expect(out).toMatch(/\/workspace\/sub\/deeper/);
    expect(out).toMatch(/var=kept-value/);
    expect(out.match(/script ran/g)).toHaveLength(2);
    expect(out).toMatch(/empty-kept/);
    expect(out).toContain(`${hash}  /workspace/big.bin`);
    expect(holders(movedSession)).toContain(1 - holder!);
  }, 400_000);

  it('removes a deleted session from the database and every disk, and sweeps what a dead worker kept', async () => {
    const rowsOf = async (sessionId: string) => {
      const [row] = await db.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT ((SELECT count(*) FROM hands_workspace_files WHERE root LIKE $1)
          + (SELECT count(*) FROM hands_workspace_chunks WHERE root LIKE $1)
          + (SELECT count(*) FROM hands_workspace_fences WHERE session_id = $2))::int AS n`,
        `%/hands/sessions/${sessionId}%`,
        sessionId,
      );
      return row!.n;
    };
    const deleteSession = async (sessionId: string) =>
      expect((await api.request('DELETE', `/v1/sessions/${sessionId}`)).status).toBe(200);
    // The moved session's first worker is dead: it cannot hear the deletion, and keeps its directory.
    expect(holders(movedSession)).toEqual([0, 1]);
    expect(await rowsOf(movedSession)).toBeGreaterThan(0);
    await deleteSession(movedSession);
    await waitFor(
      async () => ({ rows: await rowsOf(movedSession), disks: holders(movedSession) }),
      (left) => left.rows === 0 && left.disks.length === 1,
      60_000,
      "the live worker's files of the deleted session to go",
    );
    expect(holders(movedSession)).toEqual([killedIndex]);
    // Restarted after its crash, its sweep finds the directory of a session that no longer exists.
    workers()[killedIndex]!.start();
    await workers()[killedIndex]!.waitReady(120_000);
    await waitFor(
      () => Promise.resolve(holders(movedSession)),
      (left) => left.length === 0,
      60_000,
      'the restarted worker to sweep its orphaned directory',
    );

    // The fenced session has a directory on both workers, both alive: both go, with every row.
    expect(holders(fencedSession)).toEqual([0, 1]);
    expect(await rowsOf(fencedSession)).toBeGreaterThan(0);
    await deleteSession(fencedSession);
    await waitFor(
      async () => ({ rows: await rowsOf(fencedSession), disks: holders(fencedSession) }),
      (left) => left.rows === 0 && left.disks.length === 0,
      60_000,
      'the deleted session files to go',
    );
  }, 300_000);
});

function sessionDir(disk: string, sessionId: string): string | undefined {
  const out = execFileSync(
    'find',
    [disk, '-mindepth', '2', '-maxdepth', '2', '-type', 'd', '-name', sessionId],
    {
      encoding: 'utf8',
    },
  );
  return out.split('\n').find(Boolean);
}
