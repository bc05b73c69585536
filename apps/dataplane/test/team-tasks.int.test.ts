import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionAgent } from '@agentry/contracts';
import type { HarnessTool, ToolContext } from '@agentry/harness';
import { createTestDatabase, pollUntil, type TestDatabase } from '@agentry/testing';
import { SystemClock } from '@agentry/platform';
import { createTeamTools, type TeamTasksPort } from '../src/threads/team.tools.js';
import { ThreadStore } from '../src/threads/thread-store.repository.js';
import { ThreadTasks } from '../src/threads/thread-tasks.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession, type SessionFixture } from './session-fixture.js';

const TEAM_TOOLS = [
  'sessions_spawn',
  'sessions_list',
  'sessions_pending_completions',
  'wait_async_results',
] as const;

describe('Team Lead tools over persisted child sessions', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let store: ThreadStore;
  let tasks: ThreadTasks;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 2, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    store = new ThreadStore(sql);
    tasks = new ThreadTasks(sql);
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  /** A session with a primary thread, a member agent and the tools; `fresh` builds them again as a restarted process would. */
  async function team(): Promise<{
    fixture: SessionFixture;
    fresh: () => Map<string, HarnessTool>;
    spawned: (toolUseId: string) => Promise<string>;
    /** Completes once the tools have listed the tasks `times` more times: a wait has checked and gone on waiting. */
    listedAgain: (times: number) => Promise<void>;
  }> {
    const fixture = await seedSession(db.prisma);
    const row = await db.prisma.session.findUniqueOrThrow({ where: { id: fixture.sessionId } });
    const member = {
      type: 'agent',
      id: row.agentId,
      version: 1,
      name: 'Repo Surgeon',
      model: { id: 'scripted' },
      multiagent: null,
    } as unknown as SessionAgent;
    const primaryThreadId = await store.ensurePrimary(fixture.sessionId, fixture.tenantId, member);
    let lists = 0;
    const port: TeamTasksPort = {
      spawn: async (agent, task, toolUseId) => {
        const link = { sessionId: fixture.sessionId, primaryThreadId, agentName: agent.name, task: true };
        const thread = await store.findOrCreate(
          { sessionId: fixture.sessionId, primaryThreadId },
          agent,
          { agent, environment: { id: 'env', type: 'local' }, thread: link },
          { toolUseId, input: task },
        );
        return { taskId: thread.id };
      },
      list: () => {
        lists += 1;
        return tasks.list(fixture.sessionId);
      },
      collect: (toolUseId, ids) => tasks.collect(fixture.sessionId, toolUseId, ids),
    };
    const fresh = () =>
      new Map(
        createTeamTools(TEAM_TOOLS, [member], port, { pollMs: 50, clock: new SystemClock() }).map((t) => [
          t.name,
          t,
        ]),
      );
    const spawned = async (toolUseId: string) =>
      idOf(
        await run(
          fresh(),
          'sessions_spawn',
          { agent: 'Repo Surgeon', task: `task of ${toolUseId}` },
          toolUseId,
        ),
      );
    const listedAgain = async (times: number) => {
      const target = lists + times;
      await pollUntil('the tasks to be listed again', () => lists >= target, 10_000, { everyMs: 10 });
    };
    return { fixture, fresh, spawned, listedAgain };
  }

  it('spawns one persisted child per call, also when the call runs again', async () => {
    const { fixture, spawned } = await team();
    const first = await spawned('toolu_spawn_1');
    expect(await spawned('toolu_spawn_1')).toBe(first);
    const second = await spawned('toolu_spawn_2');
    expect(second).not.toBe(first);
    const children = await db.prisma.session.findMany({ where: { parentSessionId: fixture.sessionId } });
    expect(children.map((c) => c.id).sort()).toEqual([first, second].sort());
    expect((await tasks.list(fixture.sessionId)).map((t) => [t.id, t.status, t.task])).toEqual([
      [first, 'running', 'task of toolu_spawn_1'],
      [second, 'running', 'task of toolu_spawn_2'],
    ]);
  });

  it('hands a finished result to one call only; a re-run of that call gets it again', async () => {
    const { fresh, spawned } = await team();
    const done = await spawned('toolu_a');
    const running = await spawned('toolu_b');
    await tasks.finish(done, 'completed', [{ type: 'text', text: 'no risks found' }]);
    await tasks.finish(done, 'failed', [{ type: 'text', text: 'a resumed turn ending again' }]);

    const first = await run(fresh(), 'sessions_pending_completions', {}, 'toolu_pending_1');
    expect(first).toContain(`[${done}] Repo Surgeon — completed\nno risks found`);
    expect(first).toContain(`Still running: ${running}`);
    expect(await run(fresh(), 'sessions_pending_completions', {}, 'toolu_pending_2')).toBe(
      'No finished child sessions waiting. 1 still running.',
    );
    // The same call after a crash answers as it first did.
    expect(await run(fresh(), 'sessions_pending_completions', {}, 'toolu_pending_1')).toContain(
      'no risks found',
    );
    expect(await run(fresh(), 'sessions_list', {}, 'toolu_list')).toBe(
      [
        `${done}\tcompleted\tRepo Surgeon\tcollected\ttask of toolu_a`,
        `${running}\trunning\tRepo Surgeon\tnot collected\ttask of toolu_b`,
      ].join('\n'),
    );
    // Waiting without ids watches only what no other call collected.
    await tasks.finish(running, 'completed', [{ type: 'text', text: 'published' }]);
    const waited = await run(fresh(), 'wait_async_results', { timeout_seconds: 5 }, 'toolu_wait');
    expect(waited).toContain('published');
    expect(waited).not.toContain('no risks found');
    const named = await run(
      fresh(),
      'wait_async_results',
      { task_ids: `${done}, ${running}`, timeout_seconds: 0 },
      'toolu_wait_2',
    );
    expect(named).toBe(`No results yet.\n\nAlready collected earlier: ${done}, ${running}.`);
  });

  it('waits until the timeout, or until all (or the first) finish', async () => {
    const { fresh, spawned, listedAgain } = await team();
    const a = await spawned('toolu_a');
    const b = await spawned('toolu_b');

    const started = Date.now();
    const timedOut = await run(fresh(), 'wait_async_results', { timeout_seconds: 1 }, 'toolu_wait_1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(timedOut).toBe(`No results yet.\n\nStill running: ${a} (Repo Surgeon), ${b} (Repo Surgeon).`);

    const any = run(
      fresh(),
      'wait_async_results',
      { wait_all: false, timeout_seconds: 60 },
      'toolu_wait_any',
    );
    await listedAgain(2);
    await tasks.finish(a, 'completed', [{ type: 'text', text: 'A is done' }]);
    const first = await any;
    expect(first).toContain('A is done');
    expect(first).toContain(`Still running: ${b}`);

    const all = run(fresh(), 'wait_async_results', { task_ids: b, timeout_seconds: 60 }, 'toolu_wait_all');
    await listedAgain(2);
    await tasks.finish(b, 'failed', [
      { type: 'text', text: 'The child session stopped: retries_exhausted.' },
    ]);
    expect(await all).toBe(`[${b}] Repo Surgeon — failed\nThe child session stopped: retries_exhausted.`);
  });

  it('rejects bad input, naming what is wrong', async () => {
    const { fresh } = await team();
    const tools = fresh();
    expect(await run(tools, 'wait_async_results', { timeout_seconds: -1 }, 't1', 'error')).toMatch(
      /timeout_seconds/,
    );
    expect(await run(tools, 'wait_async_results', { task_ids: 'sthr_nope' }, 't2', 'error')).toMatch(
      /Unknown task_id\(s\): sthr_nope/,
    );
    expect(await run(tools, 'wait_async_results', { wait_all: 'yes' }, 't3', 'error')).toMatch(/wait_all/);
    expect(await run(tools, 'sessions_spawn', { agent: 'Ghost', task: 'x' }, 't4', 'error')).toMatch(
      /members are: Repo Surgeon/,
    );
    expect(await run(tools, 'sessions_spawn', { agent: 'Repo Surgeon', task: ' ' }, 't5', 'error')).toMatch(
      /task must be/,
    );
    expect(await run(tools, 'wait_async_results', {}, 't6')).toBe('No background tasks to wait for.');
  });
});

async function run(
  tools: Map<string, HarnessTool>,
  name: string,
  input: Record<string, unknown>,
  toolCallId: string,
  status: 'ok' | 'error' = 'ok',
): Promise<string> {
  const context = {
    toolCallId,
    signal: new AbortController().signal,
    sessionId: 's',
    agentId: 'a',
    values: {},
  } as unknown as ToolContext;
  const outcome = await tools.get(name)!.execute(input, context);
  expect(outcome.status).toBe(status);
  if (outcome.status === 'pending') throw new Error(`${name} did not answer`);
  return (outcome.content as Array<{ text: string }>).map((c) => c.text).join('');
}

function idOf(text: string): string {
  return /task_id: (\S+)/.exec(text)![1]!;
}
