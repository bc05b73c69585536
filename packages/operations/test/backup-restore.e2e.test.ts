import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  testDatabaseBaseUrl,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const run = promisify(execFile);

type Event = { id: string; type: string; content?: Array<{ text?: string }> };
/** A created resource: the test reads only its id. */
type Created = { id: string };

/**
 * The restore drill of docs/operations.md, run for real: `pg_dump -Fc` of a live installation, `pg_restore`
 * into a new database, and the platform started on the copy (same master key and JWT secret) serves the
 * restored sessions and goes on with them.
 */
describe('backup and restore drill', () => {
  let source: TestDatabase;
  let original: RunningPlatform | undefined;
  let restored: RunningPlatform | undefined;
  let dumpDir: string;
  const restoredName = `agentry_t_restore_${randomBytes(5).toString('hex')}`;
  const restoredUrl = `${testDatabaseBaseUrl().replace(/\/[^/?]*(\?.*)?$/, '')}/${restoredName}`;
  const psql = (sql: string) => run('psql', [testDatabaseBaseUrl(), '-v', 'ON_ERROR_STOP=1', '-qc', sql]);

  beforeAll(async () => {
    source = await createTestDatabase();
    dumpDir = await mkdtemp(join(tmpdir(), 'agentry-backup-'));
  });

  afterAll(async () => {
    await original?.stop();
    await restored?.stop();
    await psql(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`).catch(() => undefined);
    await source?.drop();
    await rm(dumpDir, { recursive: true, force: true });
  });

  const events = async (api: ApiClient, sessionId: string) =>
    (await api.get<{ data: Event[] }>(`/v1/sessions/${sessionId}/events?limit=1000`)).body.data;
  const replies = async (api: ApiClient, sessionId: string) =>
    (await events(api, sessionId)).filter((e) => e.type === 'agent.message').map((e) => e.content?.[0]?.text);
  /** The turn a message started has answered and the session is idle again (idle alone may be the state before it). */
  const answered = async (api: ApiClient, sessionId: string, count: number) => {
    await expect
      .poll(async () => (await replies(api, sessionId)).length, { timeout: 30_000, interval: 200 })
      .toBe(count);
    await expect
      .poll(async () => (await api.get<{ status: string }>(`/v1/sessions/${sessionId}`)).body.status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('idle');
  };
  const say = (api: ApiClient, sessionId: string, text: string) =>
    api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });

  it('serves the sessions of a pg_dump restored into a fresh database, and their next turns', async () => {
    original = await launchPlatform({ databaseUrl: source.url });
    const api = await new ApiClient(original.gatewayUrl).login('admin', 'admin');
    const agent = (await api.post<Created>('/v1/agents', { name: 'kept', model: 'scripted' })).body.id;
    const environment = (
      await api.post<Created>('/v1/environments', { name: 'kept env', config: { type: 'remote' } })
    ).body.id;
    const sessions: string[] = [];
    for (const text of ['first', 'second']) {
      const session = (await api.post<Created>('/v1/sessions', { agent, environment_id: environment })).body
        .id;
      await say(api, session, text);
      await answered(api, session, 1);
      sessions.push(session);
    }
    const before = await Promise.all(sessions.map((id) => events(api, id)));
    const secrets = {
      AGENTRY_MASTER_KEY: original.env.AGENTRY_MASTER_KEY!,
      AGENTRY_JWT_SECRET: original.env.AGENTRY_JWT_SECRET!,
    };
    await original.stop();
    original = undefined;

    const dump = join(dumpDir, 'agentry.dump');
    await run('pg_dump', ['-Fc', '--no-owner', '-f', dump, source.url]);
    expect((await stat(dump)).size).toBeGreaterThan(0);
    await psql(`CREATE DATABASE "${restoredName}"`);
    await run('pg_restore', ['--no-owner', '--exit-on-error', '-d', restoredUrl, dump]);

    restored = await launchPlatform({ databaseUrl: restoredUrl, env: secrets });
    const again = await new ApiClient(restored.gatewayUrl).login('admin', 'admin');
    expect((await again.get(`/v1/agents/${agent}`)).body).toMatchObject({ id: agent, name: 'kept' });
    for (const [index, sessionId] of sessions.entries()) {
      expect((await again.get(`/v1/sessions/${sessionId}`)).body).toMatchObject({
        id: sessionId,
        status: 'idle',
      });
      expect(await events(again, sessionId)).toEqual(before[index]);
    }
    // The restored log goes on: a new turn appends after the restored events, with nothing lost or repeated.
    await say(again, sessions[0]!, 'after the restore');
    await answered(again, sessions[0]!, 2);
    const after = await events(again, sessions[0]!);
    expect(after.slice(0, before[0]!.length)).toEqual(before[0]);
    expect(await replies(again, sessions[0]!)).toEqual(['You said: first', 'You said: after the restore']);
  });
});
