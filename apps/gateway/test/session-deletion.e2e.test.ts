import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const HOUR_MS = 3_600_000;

interface Created {
  id: string;
}

/**
 * Deleting a session through both surfaces never removes the log of live work: while a turn runs, or
 * while input waits for one, `DELETE` is a 409 that deletes nothing; once the session is quiet it goes.
 * A live lease held far into the future stands for the runner, so no real turn races the test.
 */
describe('session deletion never removes a working session', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, readyTimeoutMs: 300_000 });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    agentId = (await api.post<Created>('/v1/agents', { name: 'deletable', model: 'scripted' })).body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'deletion', config: { type: 'local' } })
    ).body.id;
  }, 400_000);
  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  async function sessionWithLog(): Promise<{ id: string; events: number }> {
    const id = (await api.post<Created>('/v1/sessions', { agent: agentId, environment_id: environmentId }))
      .body.id;
    return { id, events: await db.prisma.sessionEvent.count({ where: { sessionId: id } }) };
  }

  /** Stands in for a runner: a lease nobody will take over during the test. */
  async function holdLease(id: string, status: 'running' | 'idle'): Promise<void> {
    await db.prisma.session.update({
      where: { id },
      data: { status, leaseOwner: 'test-runner', leaseExpiresAt: new Date(Date.now() + HOUR_MS) },
    });
  }

  async function expectRefused(id: string, pattern: RegExp): Promise<void> {
    const before = await db.prisma.sessionEvent.count({ where: { sessionId: id } });
    for (const path of [`/v1/sessions/${id}`, `/api/sessions/${id}`]) {
      const refused = await api.request('DELETE', path);
      expect(refused.status, path).toBe(409);
      expect(JSON.stringify(refused.body), path).toMatch(pattern);
    }
    expect((await api.get(`/v1/sessions/${id}`)).status).toBe(200);
    expect(await db.prisma.sessionEvent.count({ where: { sessionId: id } })).toBe(before);
  }

  it('refuses while a turn is running, on /v1 and /api, then deletes the session and its log once idle', async () => {
    const session = await sessionWithLog();
    await holdLease(session.id, 'running');
    await expectRefused(session.id, /is running and cannot be deleted/);

    await db.prisma.session.update({
      where: { id: session.id },
      data: { status: 'idle', leaseOwner: null, leaseExpiresAt: null },
    });
    expect((await api.request('DELETE', `/v1/sessions/${session.id}`)).status).toBe(200);
    expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(404);
    expect(await db.prisma.sessionEvent.count({ where: { sessionId: session.id } })).toBe(0);
  });

  it('refuses while input waits for a turn (the session still idle), then deletes once it is processed', async () => {
    const session = await sessionWithLog();
    await holdLease(session.id, 'idle');
    const seq = BigInt(session.events + 1);
    const admin = await db.prisma.user.findFirstOrThrow({ where: { username: 'admin' } });
    const input = await db.prisma.sessionEvent.create({
      data: {
        id: `evt_pending_${session.id}`,
        tenantId: admin.tenantId,
        sessionId: session.id,
        seq,
        type: 'user.message',
        payload: {},
      },
    });
    await expectRefused(session.id, /input waiting for a turn/);

    await db.prisma.sessionEvent.update({ where: { id: input.id }, data: { processedAt: new Date() } });
    expect((await api.request('DELETE', `/api/sessions/${session.id}`)).status).toBe(204);
    expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(404);
  });
});
