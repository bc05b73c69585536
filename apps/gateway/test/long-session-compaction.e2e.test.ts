import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created } from './wire-types.js';

const TURNS = 300;

type StreamedEvent = { id?: string; type: string } & Record<string, unknown>;

interface TurnSeen {
  reply: string;
  /** Input tokens of the turn's model request: how much of the conversation the model was given. */
  contextTokens: number;
  compacted: boolean;
}

/**
 * A long session is compacted many times (the compactor's default message threshold) and every turn
 * still answers its own request, with the recent messages the compactor kept carried into the next turn.
 */
describe('a 300-turn session with compaction', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, env: { AGENTRY_LOG_LEVEL: 'warn' } });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    // The summarisation call gets a short fixed summary; every other request is echoed ("You said: …").
    const script = {
      turns: [
        { match: '^Summarise these \\d+ earlier messages', reply: ['The user sent numbered requests.'] },
      ],
    };
    const agent = await api.post<Created>('/v1/agents', { name: 'echo', model: { id: 'scripted', script } });
    expect(agent.status).toBe(200);
    agentId = agent.body.id;
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

  it('answers every turn from its own request and never loses the kept messages between turns', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const stream = await client.beta.sessions.events.stream(session.id);
    const seen: StreamedEvent[] = [];
    const pumping = (async () => {
      try {
        for await (const event of stream) seen.push(event as unknown as StreamedEvent);
      } catch {
        // aborted at the end
      }
    })();
    const idles = () => seen.filter((e) => e.type === 'session.status_idle').length;

    const turns: TurnSeen[] = [];
    for (let i = 0; i < TURNS; i += 1) {
      const from = seen.length;
      await client.beta.sessions.events.send(session.id, {
        events: [{ type: 'user.message', content: [{ type: 'text', text: `request number ${i}` }] }],
      });
      await pollUntil(`turn ${i} to go idle`, () => idles() > i, 30_000, { everyMs: 5 }).catch(() => {
        throw new Error(
          `turn ${i} never went idle; saw ${seen
            .slice(from)
            .map((e) => e.type)
            .join(', ')}`,
        );
      });
      const events = seen.slice(from);
      const end = events.find((e) => e.type === 'span.model_request_end') as
        { model_usage?: { input_tokens?: number } } | undefined;
      turns.push({
        reply: events
          .filter((e) => e.type === 'agent.message')
          .map((e) => JSON.stringify(e.content))
          .join(''),
        contextTokens: end?.model_usage?.input_tokens ?? 0,
        compacted: events.some((e) => e.type === 'agent.thread_context_compacted'),
      });
    }
    stream.controller.abort();
    await pumping;

    turns.forEach((turn, i) => expect(turn.reply, `turn ${i}`).toContain(`You said: request number ${i}`));
    expect(turns.filter((t) => t.compacted).length).toBeGreaterThanOrEqual(5);
    // Between compactions the context only grows: a turn after a compaction starts from what the
    // compactor left (summary and kept messages), not from the summary alone.
    const shrankWithoutCompaction = turns.flatMap((turn, i) =>
      i > 0 && !turn.compacted && turn.contextTokens < turns[i - 1]!.contextTokens ? [i] : [],
    );
    expect(shrankWithoutCompaction).toEqual([]);
    expect(turns.every((t) => t.contextTokens > 0)).toBe(true);
  }, 600_000);
});
