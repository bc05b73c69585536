import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollFor,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

interface Event {
  id: string;
  type: string;
  content?: Array<{ text?: string }>;
}
interface Created {
  id: string;
}

interface Checkpoint {
  id: string;
  event_id: string;
  seq: number;
}

const FILES = 1000;
const FILE_BYTES = 1024;
const textOf = (e: Event) => (e.content ?? []).map((c) => c.text ?? '').join('');

/**
 * Every turn boundary is a checkpoint (the log position and the workspace as it was): a fork starts a new
 * session from one, a rollback takes the same session back to one, and neither can happen mid-turn. The
 * workspace is stored by content, so a checkpoint after a one-file change stores that file's bytes only.
 */
describe('session checkpoints, fork and rollback', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;
  let environmentId: string;
  let agentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'ckpt',
      config: { type: 'local' },
    });
    environmentId = environment.body.id;
    const agent = await api.post<Created>('/v1/agents', {
      name: 'ckpt',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^one$',
              reply: [
                { toolCall: { name: 'write', input: { file_path: 'notes.txt', content: 'first' } } },
                'wrote one',
              ],
            },
            {
              match: '^two$',
              reply: [
                { toolCall: { name: 'write', input: { file_path: 'notes.txt', content: 'second' } } },
                'wrote two',
              ],
            },
            {
              match: '^look$',
              reply: [
                { toolCall: { name: 'read', input: { file_path: 'notes.txt' } } },
                'saw [{{tool_results}}] after [{{user_messages}}]',
              ],
            },
            {
              match: '^slow$',
              reply: [{ toolCall: { name: 'bash', input: { command: 'sleep 4' } } }, 'slept'],
            },
            {
              match: '^many$',
              reply: [
                {
                  toolCall: {
                    name: 'bash',
                    input: {
                      command: `mkdir -p many && for i in $(seq 1 ${FILES}); do head -c ${FILE_BYTES} /dev/urandom > many/f$i; done`,
                    },
                  },
                },
                'made many',
              ],
            },
            {
              match: '^change one$',
              reply: [
                {
                  toolCall: {
                    name: 'write',
                    input: { file_path: 'many/f7', content: 'x'.repeat(FILE_BYTES) },
                  },
                },
                'changed one',
              ],
            },
          ],
        },
      },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    agentId = agent.body.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const events = async (sessionId: string): Promise<Event[]> => {
    const listed = await api.get<{ data: Event[] }>(`/v1/sessions/${sessionId}/events?limit=1000`);
    expect(listed.status).toBe(200);
    return listed.body.data;
  };
  const idles = async (sessionId: string) =>
    (await events(sessionId)).filter((e) => e.type === 'session.status_idle');
  const userTexts = async (sessionId: string) =>
    (await events(sessionId)).filter((e) => e.type === 'user.message').map(textOf);
  const lastAnswer = async (sessionId: string) =>
    textOf((await events(sessionId)).filter((e) => e.type === 'agent.message').at(-1)!);
  const checkpoints = async (sessionId: string): Promise<Checkpoint[]> => {
    const listed = await api.get<{ data: Checkpoint[] }>(`/v1/sessions/${sessionId}/checkpoints`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    return listed.body.data;
  };

  async function send(sessionId: string, text: string): Promise<void> {
    await client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });
  }

  /** Sends `text` and waits for the turn's end and its checkpoint. */
  async function turn(sessionId: string, text: string): Promise<Checkpoint> {
    const before = (await idles(sessionId)).length;
    await send(sessionId, text);
    const ended = await pollFor(
      `the turn "${text}" to end`,
      () => idles(sessionId),
      (i) => i.length > before,
      90_000,
    );
    const idle = ended.at(-1)!;
    const listed = await pollFor(
      `the checkpoint of "${text}"`,
      () => checkpoints(sessionId),
      (c) => c.some((k) => k.event_id === idle.id),
      30_000,
    );
    return listed.find((k) => k.event_id === idle.id)!;
  }

  const openSession = async () =>
    (await client.beta.sessions.create({ agent: agentId, environment_id: environmentId })).id;

  let original = '';
  let afterOne: Checkpoint;

  it('forks from the checkpoint after turn 1: its files and history, a new turn on them, the original untouched', async () => {
    original = await openSession();
    afterOne = await turn(original, 'one');
    const afterTwo = await turn(original, 'two');
    expect(afterTwo.seq).toBeGreaterThan(afterOne.seq);
    expect((await checkpoints(original)).map((c) => c.id)).toEqual([afterOne.id, afterTwo.id]);
    const originalLog = await events(original);

    const forked = await api.post<Created>(`/v1/sessions/${original}/fork`, { checkpoint: afterOne.id });
    expect(forked.status, JSON.stringify(forked.body)).toBe(200);
    const fork = forked.body.id;
    expect(fork).not.toBe(original);
    expect(forked.body).toMatchObject({ status: 'idle', agent: { id: agentId } });
    expect(await userTexts(fork)).toEqual(['one']);

    await turn(fork, 'look');
    expect(await lastAnswer(fork)).toBe('saw [first] after [one | look]');

    expect(await events(original)).toEqual(originalLog);
    await turn(original, 'look');
    expect(await lastAnswer(original)).toBe('saw [second] after [one | two | look]');
  });

  it('forks from the event a checkpoint sits on (also on /api), onto another agent, and names a start that is none as a 404', async () => {
    const byEvent = await api.post<Created>(`/v1/sessions/${original}/fork`, { event_id: afterOne.event_id });
    expect(byEvent.status, JSON.stringify(byEvent.body)).toBe(200);
    expect(await userTexts(byEvent.body.id)).toEqual(['one']);

    const listed = await api.get<unknown[]>(`/api/sessions/${original}/checkpoints`);
    expect(listed.status).toBe(200);
    expect(listed.body[0]).toMatchObject({
      id: afterOne.id,
      sessionId: original,
      eventId: afterOne.event_id,
    });
    const viaApi = await api.post<Created>(`/api/sessions/${original}/fork`, { eventId: afterOne.event_id });
    expect(viaApi.status, JSON.stringify(viaApi.body)).toBe(200);
    expect(await userTexts(viaApi.body.id)).toEqual(['one']);

    const other = await api.post<Created>('/v1/agents', {
      name: 'ckpt other',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^look$',
              reply: [
                { toolCall: { name: 'read', input: { file_path: 'notes.txt' } } },
                'other saw [{{tool_results}}]',
              ],
            },
          ],
        },
      },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const withOther = await api.post<Created & { agent: unknown }>(`/v1/sessions/${original}/fork`, {
      checkpoint: afterOne.id,
      agent: { type: 'agent', id: other.body.id, version: 1 },
    });
    expect(withOther.status, JSON.stringify(withOther.body)).toBe(200);
    expect(withOther.body.agent).toMatchObject({ id: other.body.id, version: 1 });
    await turn(withOther.body.id, 'look');
    expect(await lastAnswer(withOther.body.id)).toBe('other saw [first]');

    const unknown = await api.post(`/v1/sessions/${original}/fork`, { checkpoint: 'ckpt_nope' });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toContain('ckpt_nope');
    const both = await api.post(`/v1/sessions/${original}/fork`, { checkpoint: afterOne.id, event_id: 'x' });
    expect(both.status).toBe(400);
  });

  it('rolls back to the checkpoint after turn 1: the next turn sees its files and history, the log keeps all', async () => {
    const rolled = await api.post<{ event_id: string }>(`/v1/sessions/${original}/rollback`, {
      checkpoint: afterOne.id,
    });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body).toMatchObject({
      type: 'session_rollback',
      session_id: original,
      checkpoint_id: afterOne.id,
    });
    const marker = (await events(original)).at(-1)!;
    expect(marker).toMatchObject({
      id: rolled.body.event_id,
      type: 'session.rolled_back',
      to_event_id: afterOne.event_id,
    });

    await turn(original, 'look');
    expect(await lastAnswer(original)).toBe('saw [first] after [one | look]');
    expect(await userTexts(original)).toEqual(['one', 'two', 'look', 'look']);
  });

  it('refuses a fork or a rollback while a turn runs (409)', async () => {
    const session = await openSession();
    const first = await turn(session, 'one');
    await send(session, 'slow');
    await pollFor(
      'the slow turn to run',
      async () => (await client.beta.sessions.retrieve(session)).status,
      (s) => s === 'running',
      30_000,
    );
    const fork = await api.post(`/v1/sessions/${session}/fork`, { checkpoint: first.id });
    expect(fork.status).toBe(409);
    expect(JSON.stringify(fork.body)).toContain('running');
    const rollback = await api.post(`/v1/sessions/${session}/rollback`, { checkpoint: first.id });
    expect(rollback.status).toBe(409);
    await pollFor(
      'the slow turn to end',
      () => lastAnswer(session),
      (t) => t === 'slept',
      60_000,
    );
  });

  it("stores one file's worth of data for a checkpoint after a one-file change among 1,000 files", async () => {
    const session = await openSession();
    const blobBytes = async () => {
      const rows = await db.prisma.$queryRawUnsafe<Array<{ bytes: bigint | null }>>(
        'SELECT sum(size) AS bytes FROM session_checkpoint_blobs',
      );
      return Number(rows[0]?.bytes ?? 0);
    };
    const many = await turn(session, 'many');
    const filesIn = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM session_checkpoint_files WHERE checkpoint_id = $1 AND path LIKE 'many/%'`,
      many.id,
    );
    expect(Number(filesIn[0]!.n)).toBe(FILES);
    const before = await blobBytes();
    await turn(session, 'change one');
    const added = (await blobBytes()) - before;
    console.log(`checkpoint after a one-file change among ${FILES} files stored ${added} bytes of content`);
    expect(added).toBe(FILE_BYTES);

    // Deleting the session deletes its checkpoints, and the content no other checkpoint names goes too.
    const beforeDelete = await blobBytes();
    await client.beta.sessions.delete(session);
    const left = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      'SELECT count(*) AS n FROM session_checkpoints WHERE session_id = $1',
      session,
    );
    expect(Number(left[0]!.n)).toBe(0);
    expect(beforeDelete - (await blobBytes())).toBeGreaterThanOrEqual(FILES * FILE_BYTES);
  });
});
