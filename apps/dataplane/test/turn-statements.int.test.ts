import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { DataplaneSubjects as D, type Actor, type InboundEvent } from '@agentry/contracts';
import { pollUntil } from '@agentry/testing';
import { SqlPool } from '../src/sql/sql-pool.js';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import {
  adminOf,
  agentSnapshot,
  seedSelfHostedEnvironment,
  seedSessionOnNewEnvironment,
} from './self-hosted-fixture.js';

const text = (t: string): InboundEvent => ({ type: 'user.message', content: [{ type: 'text', text: t }] });

/** Statements every replica sends on its own schedule, whatever its turns do. */
const PERIODIC = new Set(['replicas.beat', 'sessions.expired-leases']);

/**
 * The statements one plain turn costs: a chat agent (no tools) on a local environment, the message's
 * append included. Each is a round trip and, for a write, a commit, which under load is most of what a
 * turn waits for (docs/performance.md, "Where a turn waits").
 */
describe('the statements of a turn', () => {
  let dp: DataplaneTestApp;
  let actor: Actor;
  let sessionId: string;
  const sent: string[] = [];

  beforeAll(async () => {
    dp = await startDataplane();
    const env = await seedSelfHostedEnvironment(dp.db.prisma);
    actor = adminOf(env);
    sessionId = await seedSessionOnNewEnvironment(dp.db.prisma, env, 'local', {
      ...agentSnapshot(env.agentId),
      tools: [],
    });
    // Every statement of both pools, by name (or its first words when unnamed).
    const sql = dp.app.get(SqlPool);
    const pickup = (sql as unknown as { pickup: pg.Pool }).pickup;
    for (const pool of [sql.pool, pickup]) {
      const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
      Object.assign(pool, {
        query: (config: unknown, ...rest: unknown[]) => {
          const named = config as { name?: string; text?: string };
          const name = typeof config === 'string' ? config : (named.name ?? named.text ?? '');
          if (PERIODIC.has(name)) return query(config, ...rest);
          const short = name.replace(/\s+/g, ' ').slice(0, 40);
          sent.push(short);
          return query(config, ...rest);
        },
      });
    }
  });
  afterAll(async () => {
    await dp?.close();
  });

  /** Sends a message and waits for its turn to end and its checkpoint to be sealed on the closing event. */
  async function turn(message: string): Promise<void> {
    await dp.rpc.request(D.appendEvents, { actor, sessionId, events: [text(message)] });
    await pollUntil('the turn closed and its checkpoint sealed', async () => {
      const [last] = await dp.db.prisma.sessionEvent.findMany({
        where: { sessionId },
        orderBy: { seq: 'desc' },
        take: 1,
      });
      if (last?.type !== 'session.status_idle') return undefined;
      const sealed = await dp.db.prisma.sessionCheckpoint.count({ where: { eventId: last.id } });
      return sealed === 1 ? true : undefined;
    });
  }

  it('makes six: the append, the lease, the prelude, the start with the model call, its usage, the close', async () => {
    await turn('warm-up');
    sent.length = 0;
    await turn('hello');
    expect(sent).toEqual([
      'events.append.client',
      'sessions.acquire',
      // Asked for as the turn starts; the harness waits for it before its first model call.
      'workspace.workspace_files.readAhead',
      // The start (`idle → running`) travels with the first model call's `span.model_request_start`.
      'events.append.transition',
      'usage.settle',
      // With the turn boundary's checkpoint: the Hands copy is empty and no tool ran.
      'events.append.close-checkpointed',
    ]);
    const log = await dp.db.prisma.sessionEvent.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
    const hello = log.findIndex(
      (e) => e.type === 'user.message' && JSON.stringify(e.payload).includes('hello'),
    );
    expect(log.slice(hello + 1, hello + 3).map((e) => e.type)).toEqual([
      'session.status_running',
      'span.model_request_start',
    ]);
  });
});
