import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@agentry/contracts';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  settleWithin,
  type ApiResponse,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

/** NATS's default `max_payload`, which the test server keeps. */
const BUS_MAX_PAYLOAD = 1_048_576;
/** A system prompt as long as the API accepts; every session carries its agent's. */
const LONGEST_SYSTEM = 's'.repeat(LIMITS.systemMax);
const LARGEST_METADATA = Object.fromEntries(
  Array.from({ length: LIMITS.metadataKeys }, (_, n) => [
    `key${n}`.padEnd(LIMITS.metadataKeyMax, 'k'),
    'v'.repeat(LIMITS.metadataValueMax),
  ]),
);

/**
 * Lists whose page at the requested limit is larger than one message on the bus: the services cut the
 * page by bytes, and a client following the cursors still gets every item once, in order.
 */
describe('pages larger than the bus', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let api: ApiClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('pages through sessions whose page of 100 would exceed 1 MB, with the SDK and /api', async () => {
    const agent = await client.beta.agents.create({
      name: 'long prompt',
      model: 'scripted',
      system: LONGEST_SYSTEM,
    });
    const env = await client.beta.environments.create({ name: 'big pages', config: { type: 'cloud' } });
    const made: string[] = [];
    for (let i = 0; i < 14; i++) {
      const title = `session ${i} `.padEnd(LIMITS.nameMax, 't');
      made.push(
        (
          await client.beta.sessions.create({
            agent: agent.id,
            environment_id: env.id,
            title,
            metadata: LARGEST_METADATA,
          })
        ).id,
      );
    }
    const newestFirst = [...made].reverse();

    const first = await client.beta.sessions.list({ limit: 100 });
    expect(first.data.length).toBeGreaterThan(0);
    expect(first.data.length).toBeLessThan(made.length);
    expect(Buffer.byteLength(JSON.stringify(first.data))).toBeLessThan(BUS_MAX_PAYLOAD);

    const viaSdk: string[] = [];
    for await (const session of client.beta.sessions.list({ limit: 100 })) viaSdk.push(session.id);
    expect(viaSdk).toEqual(newestFirst);

    expect(await listAllViaApi(api, '/api/sessions?limit=100')).toEqual(newestFirst);
  });

  it('pages through agents whose page of 100 would exceed 1 MB, with the SDK and /api', async () => {
    const before = await client.beta.agents.list({ limit: 100 });
    const made: string[] = [];
    for (let i = 0; i < 12; i++)
      made.push(
        (await client.beta.agents.create({ name: `agent ${i}`, model: 'scripted', system: LONGEST_SYSTEM }))
          .id,
      );
    const newestFirst = [...made].reverse();
    expect(before.data.length).toBeLessThan(5);

    const viaSdk: string[] = [];
    for await (const agent of client.beta.agents.list({ limit: 100 })) viaSdk.push(agent.id);
    expect(viaSdk.slice(0, made.length)).toEqual(newestFirst);
    expect(new Set(viaSdk).size).toBe(viaSdk.length);

    const viaApi = await listAllViaApi(api, '/api/agents?limit=100');
    expect(viaApi).toEqual(viaSdk);
  });

  it('refuses an agent too large to reach control over the bus with a 413, not a 503', async () => {
    const huge = { type: 'object' as const, properties: { notes: { description: 'n'.repeat(1_500_000) } } };
    const refused = await settleWithin(
      5_000,
      'the refusal',
      client.beta.agents
        .create({
          name: 'huge',
          model: 'scripted',
          tools: [{ type: 'custom', name: 'huge', description: 'huge', input_schema: huge }],
        })
        .catch((e: unknown) => e),
    );
    expect(refused).toBeInstanceOf(Anthropic.APIError);
    expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(413);
    expect((refused as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      error: { type: 'request_too_large' },
    });
  });
});

/** Follows `/api`'s `x-next-page` header to the end; every page must be a 200. */
async function listAllViaApi(api: ApiClient, path: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response: ApiResponse<{ id: string }[]> = await api.get<{ id: string }[]>(
      cursor ? `${path}&page=${encodeURIComponent(cursor)}` : path,
    );
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    ids.push(...response.body.map((item) => item.id));
    cursor = response.headers.get('x-next-page');
    pages += 1;
  } while (cursor && pages < 50);
  expect(pages).toBeGreaterThan(1);
  return ids;
}
