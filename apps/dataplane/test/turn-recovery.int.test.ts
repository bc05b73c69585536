import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handsResultKey, ID_PREFIXES, newId, type SessionAgent } from '@agentry/contracts';
import { REDIS } from '@agentry/platform';
import { pollUntil } from '@agentry/testing';
import type { Redis } from 'ioredis';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import { agentSnapshot, seedSelfHostedEnvironment } from './self-hosted-fixture.js';

// `payload` is an object: what a JSON column takes.
type Row = { id: string; type: string; payload: object; processed?: boolean };

const WRITE = { name: 'write', input: { file_path: 'notes.txt', content: 'hello' } };
const GLOB = { name: 'glob', input: { pattern: '**/*' } };
/** The model asks for one tool, then says it is done once the tool's result is in. */
const oneTool = (call: { name: string; input: Record<string, unknown> }) => ({
  turns: [{ reply: [{ toolCalls: [call] }, 'Done after the tool.'] }],
});
const RECORDED = 'Wrote 5 bytes to notes.txt';

const user = (): Row => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type: 'user.message',
  payload: { content: [{ type: 'text', text: 'go' }] },
  processed: true,
});
const marker = (type: string, payload: Record<string, unknown> = {}): Row => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type,
  payload,
});
const toolUse = (
  call: { name: string; input: Record<string, unknown> },
  permission: 'allow' | 'ask' = 'allow',
): Row => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type: 'agent.tool_use',
  payload: { ...call, evaluated_permission: permission },
});

/**
 * Every point at which a dataplane can die in a turn, as the log stands after it: the runner that takes
 * the expired lease over continues the turn, and each open tool call meets its fate at most once.
 */
interface CrashPoint {
  point: string;
  environment: 'remote' | 'local';
  script?: Record<string, unknown>;
  /** The crashed turn's events after its input and `session.status_running`. */
  cutAt: (ids: { use: string }) => Row[];
  /** The result the Hands recorded for the open call before the crash. */
  recorded?: boolean;
  expectResult: RegExp | null;
  expectError?: boolean;
  expectAnswer: string;
  /** A write that may have run: it must not run again (at most once). */
  notRunAgain?: boolean;
}

const CRASH_POINTS: CrashPoint[] = [
  {
    point: 'before the model call',
    environment: 'remote',
    cutAt: () => [marker('span.model_request_start')],
    expectResult: null,
    expectAnswer: 'You said: go',
  },
  {
    point: 'between tool_use and an idempotent tool: it runs again',
    environment: 'remote',
    script: oneTool(GLOB),
    cutAt: () => [marker('span.model_request_start'), toolUse(GLOB)],
    expectResult: /.*/,
    expectError: false,
    expectAnswer: 'Done after the tool.',
  },
  {
    point: 'between tool_use and a tool that changes things: may or may not have run',
    environment: 'remote',
    script: oneTool(WRITE),
    cutAt: () => [marker('span.model_request_start'), toolUse(WRITE)],
    expectResult: /may or may not have run/,
    expectError: true,
    expectAnswer: 'Done after the tool.',
    notRunAgain: true,
  },
  {
    point: 'during the tool, after its Hands recorded the result: the result is used',
    environment: 'local',
    script: oneTool(WRITE),
    cutAt: () => [marker('span.model_request_start'), toolUse(WRITE)],
    recorded: true,
    expectResult: new RegExp(RECORDED),
    expectError: false,
    expectAnswer: 'Done after the tool.',
  },
  {
    point: 'during a tool the user confirmed: may or may not have run, not asked again',
    environment: 'remote',
    script: oneTool(WRITE),
    cutAt: ({ use }) => [
      marker('span.model_request_start'),
      { ...toolUse(WRITE, 'ask'), id: use },
      marker('session.status_idle', { stop_reason: { type: 'requires_action', event_ids: [use] } }),
      {
        ...marker('user.tool_confirmation', { tool_use_id: use, result: 'allow' }),
        processed: true,
      },
      marker('session.status_running'),
    ],
    expectResult: /may or may not have run/,
    expectError: true,
    expectAnswer: 'Done after the tool.',
    notRunAgain: true,
  },
  {
    point: "at the turn's closing write: the model is asked again, the tool is not run again",
    environment: 'remote',
    script: oneTool(WRITE),
    cutAt: ({ use }) => [
      marker('span.model_request_start'),
      { ...toolUse(WRITE), id: use },
      marker('agent.tool_result', { tool_use_id: use, content: [{ type: 'text', text: 'written' }] }),
      marker('span.model_request_start'),
    ],
    expectResult: null,
    expectAnswer: 'Done after the tool.',
  },
];

describe('a turn cut off by a crash is taken over and resumed', () => {
  let dp: DataplaneTestApp;
  let redis: Redis;

  beforeAll(async () => {
    dp = await startDataplane({ AGENTRY_TAKEOVER_SCAN_MS: '100' });
    redis = dp.app.get(REDIS);
  });
  afterAll(async () => {
    await dp?.close();
  });

  /** A session whose runner died mid-turn: `running`, its log cut at the crash point, its lease expired. */
  async function crashedSession(point: CrashPoint, use: string): Promise<string> {
    const prisma = dp.db.prisma;
    const env = await seedSelfHostedEnvironment(prisma);
    await prisma.environment.update({ where: { id: env.environmentId }, data: { type: point.environment } });
    const agent: SessionAgent = agentSnapshot(env.agentId, point.script);
    const sessionId = newId(ID_PREFIXES.session);
    const spec: object = {
      agent,
      environment: { id: env.environmentId, type: point.environment, config: { type: point.environment } },
    };
    const rows = [user(), marker('session.status_running'), ...point.cutAt({ use })];
    await prisma.session.create({
      data: {
        id: sessionId,
        tenantId: env.tenantId,
        namespaceId: env.namespaceId,
        agentId: env.agentId,
        agentVersion: 1,
        environmentId: env.environmentId,
        spec,
        status: 'running',
        lastSeq: rows.length,
        leaseOwner: 'crashed-replica',
        leaseToken: 7,
        // Held until everything the crash left is in place; expired below.
        leaseExpiresAt: new Date('2100-01-01T00:00:00Z'),
      },
    });
    await prisma.sessionEvent.createMany({
      data: rows.map((row, i) => ({
        id: row.id,
        tenantId: env.tenantId,
        sessionId,
        seq: i + 1,
        type: row.type,
        payload: row.payload,
        processedAt: row.type.startsWith('user.') && row.processed === false ? null : new Date(),
      })),
    });
    const open = rows.findLast((r) => r.type === 'agent.tool_use');
    if (point.recorded && open) {
      await redis.set(
        handsResultKey(open.id),
        JSON.stringify({ toolUseId: open.id, content: [{ type: 'text', text: RECORDED }], isError: false }),
      );
    }
    await prisma.session.update({ where: { id: sessionId }, data: { leaseExpiresAt: new Date(0) } });
    return sessionId;
  }

  it.each(CRASH_POINTS)('$point', async (point) => {
    const use = newId(ID_PREFIXES.sessionEvent);
    const sessionId = await crashedSession(point, use);
    const cutSeq = Number(
      (await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).lastSeq,
    );
    const resumed = await pollUntil(
      'the turn resumed and ended',
      async () => {
        const events = await dp.db.prisma.sessionEvent.findMany({
          where: { sessionId, seq: { gt: cutSeq } },
          orderBy: { seq: 'asc' },
        });
        return events.at(-1)?.type === 'session.status_idle' ? events : undefined;
      },
      20_000,
    );
    const types = resumed.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['session.status_rescheduled', 'session.status_running']);
    const results = resumed.filter((e) => e.type === 'agent.tool_result');
    if (point.expectResult === null) expect(results).toEqual([]);
    else {
      expect(results).toHaveLength(1);
      expect(JSON.stringify(results[0]!.payload)).toMatch(point.expectResult);
      expect((results[0]!.payload as { is_error?: boolean }).is_error === true).toBe(point.expectError);
    }
    const answers = resumed.filter((e) => e.type === 'agent.message');
    expect(answers.map((e) => JSON.stringify(e.payload))).toEqual([
      expect.stringContaining(point.expectAnswer),
    ]);
    const session = await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session.status).toBe('idle');
    expect(session.stopReason).toEqual({ type: 'end_turn' });
    // At most once: the write that may have run was not run again here.
    if (point.notRunAgain)
      expect(
        await dp.db.prisma.workspaceFile.count({
          where: { tenantId: session.tenantId, path: { contains: 'notes.txt' } },
        }),
      ).toBe(0);
  });
});
