import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  SseClient,
  type RunningPlatform,
  type SseFrame,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, ErrorReply } from './wire-types.js';

const ANSWER =
  'Streaming arrives in pieces: each preview is a prefix of what the final agent.message says, and only that is kept.';
const PONDER = 'Which words first?';

type Streamed = { id?: string; type: string } & Record<string, unknown>;

/** Token previews (`event_deltas[]`) from the dataplane process to the gateway process's SSE clients. */
describe('event_deltas: token previews on the stream', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const script = { chunkSize: 7, turns: [{ reply: [{ thinking: PONDER, text: ANSWER }] }] };
    agentId = (await api.post<Created>('/v1/agents', { name: 'talker', model: { id: 'scripted', script } }))
      .body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'cloud', config: { type: 'cloud' } })
    ).body.id;
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const newSession = async () =>
    (await client.beta.sessions.create({ agent: agentId, environment_id: environmentId })).id;
  const say = (sessionId: string) =>
    client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'talk to me' }] }],
    });
  const open = (path: string) => SseClient.open(`${platform.gatewayUrl}${path}`, api.authHeaders);
  const untilIdle = (stream: SseClient) =>
    stream.waitFor((frames) => frames.some((f) => f.event === 'session.status_idle'), 30_000);
  const parsed = (frames: SseFrame[]) => frames.map((f) => JSON.parse(f.data) as Streamed);
  const isPreview = (type: string | undefined) => type === 'event_start' || type === 'event_delta';

  it('the SDK stream with event_deltas[]=agent.message previews the reply: deltas concatenate to a prefix of the final message, under its id', async () => {
    const sessionId = await newSession();
    const stream = await client.beta.sessions.events.stream(sessionId, { event_deltas: ['agent.message'] });
    await say(sessionId);
    const seen: Streamed[] = [];
    for await (const event of stream) {
      seen.push(event as unknown as Streamed);
      if (event.type === 'session.status_idle') break;
    }
    const message = seen.find((e) => e.type === 'agent.message')!;
    const finalText = (message.content as { text: string }[]).map((b) => b.text).join('');
    expect(finalText).toBe(ANSWER);

    const starts = seen.filter((e) => e.type === 'event_start');
    // Only the asked-for type is previewed: no start for the thinking.
    expect(starts).toEqual([{ type: 'event_start', event: { id: message.id, type: 'agent.message' } }]);
    const deltas = seen.filter((e) => e.type === 'event_delta');
    expect(deltas.length).toBeGreaterThan(0);
    for (const delta of deltas)
      expect(delta).toMatchObject({
        event_id: message.id,
        delta: { type: 'content_delta', content: { type: 'text' } },
      });
    const previewed = deltas.map((d) => (d.delta as { content: { text: string } }).content.text).join('');
    expect(previewed.length).toBeGreaterThan(0);
    expect(finalText.startsWith(previewed)).toBe(true);
    // The preview opens before its final event arrives.
    expect(seen.indexOf(starts[0]!)).toBeLessThan(seen.indexOf(message));
  }, 60_000);

  it('agent.thinking previews are start-only; previews carry no id, are never persisted and never replayed; a stream without the parameter is unchanged', async () => {
    const sessionId = await newSession();
    const both = await open(
      `/v1/sessions/${sessionId}/events/stream?event_deltas[]=agent.message&event_deltas[]=agent.thinking`,
    );
    const plain = await open(`/v1/sessions/${sessionId}/events/stream`);
    const agentscope = await open(`/api/sessions/${sessionId}/events/stream?event_deltas[]=agent.message`);
    expect([both.status, plain.status, agentscope.status]).toEqual([200, 200, 200]);
    await say(sessionId);
    await Promise.all([untilIdle(both), untilIdle(plain), untilIdle(agentscope)]);
    await Promise.all([both.close(), plain.close(), agentscope.close()]);

    const events = parsed(both.frames);
    const thinking = events.find((e) => e.type === 'agent.thinking')!;
    expect(events.filter((e) => e.type === 'event_start').map((e) => e.event)).toEqual([
      { id: thinking.id, type: 'agent.thinking' },
      { id: events.find((e) => e.type === 'agent.message')!.id, type: 'agent.message' },
    ]);
    expect(events.filter((e) => e.type === 'event_delta').every((e) => e.event_id !== thinking.id)).toBe(
      true,
    );
    for (const frame of both.frames.filter((f) => isPreview(f.event))) expect(frame.id).toBeUndefined();

    // Without the parameter: exactly the persisted events, as before.
    expect(plain.frames.some((f) => isPreview(f.event))).toBe(false);
    const persisted: Streamed[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      persisted.push(event as unknown as Streamed);
    expect(parsed(plain.frames).map((e) => e.id)).toEqual(persisted.map((e) => e.id));
    expect(persisted.some((e) => isPreview(e.type))).toBe(false);

    // The /api stream previews too, in the same CMA shape.
    const apiDeltas = parsed(agentscope.frames.filter((f) => f.event === 'event_delta'));
    expect(apiDeltas.length).toBeGreaterThan(0);
    expect(
      ANSWER.startsWith(
        apiDeltas.map((d) => (d.delta as { content: { text: string } }).content.text).join(''),
      ),
    ).toBe(true);

    // A reconnect replays the log, never the previews.
    const replay = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream?event_deltas[]=agent.message`,
      {
        ...api.authHeaders,
        'last-event-id': '0',
      },
    );
    await untilIdle(replay);
    await replay.close();
    expect(replay.frames.some((f) => isPreview(f.event))).toBe(false);
    expect(parsed(replay.frames).map((e) => e.id)).toEqual(persisted.map((e) => e.id));
  }, 60_000);

  it('rejects an event type that cannot be previewed, naming the parameter', async () => {
    const sessionId = await newSession();
    const response = await api.get<ErrorReply>(
      `/v1/sessions/${sessionId}/events/stream?event_deltas[]=agent.tool_use`,
    );
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/event_deltas/);
  });
});
