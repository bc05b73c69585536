import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  describeLoad,
  launchPlatform,
  runResumingLoad,
  UNLIMITED_PRINCIPALS,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 50);
const TURNS = Number(process.env.LOAD_TURNS ?? 5);

/** The load suite in bounded form (`bench/load/sessions.ts` runs it at 500 × 20). */
describe('load: sessions whose streams are cut at random and resume with Last-Event-ID', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 600_000,
      env: { ...UNLIMITED_PRINCIPALS },
    });
  }, 700_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it(`${SESSIONS} sessions × ${TURNS} turns: every client sees every event once, in order, and no session is stuck`, async () => {
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const result = await runResumingLoad({
      api,
      gatewayUrl: platform.gatewayUrl,
      sessions: SESSIONS,
      turnsPerSession: TURNS,
      dropChance: 0.5,
      turnTimeoutMs: 90_000,
      lastSeq: async (sessionId) =>
        Number(
          (await db.prisma.sessionEvent.aggregate({ where: { sessionId }, _max: { seq: true } }))._max.seq ??
            0,
        ),
    });
    console.log(`load: ${describeLoad(result)}`);
    expect(result.stuck).toEqual([]);
    expect(result.turns).toBe(SESSIONS * TURNS);
    expect(result.reconnects).toBeGreaterThan(0);
    expect({ duplicates: result.duplicates, missing: result.missing, outOfOrder: result.outOfOrder }).toEqual(
      { duplicates: 0, missing: 0, outOfOrder: 0 },
    );
  }, 240_000);
});
