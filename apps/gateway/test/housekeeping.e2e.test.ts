import Anthropic from '@anthropic-ai/sdk';
import { CronExpressionParser } from 'cron-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { ErrorReply, Page, UsageRow } from './wire-types.js';

type Amount = { amount: string; currency: string };
type Totals = {
  model_requests: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
};

/** The scripted model's list price here: 0.0001 USD an input token, 0.0002 an output token. */
const PRICES = { scripted: { input: 100, output: 200 } };
const DAY_MS = 86_400_000;
const micros = (amount: Amount | null | undefined) => Math.round(Number(amount?.amount ?? '0') * 1_000_000);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Housekeeping across the five services: the usage report, retention of archived sessions, and cron
 * schedules checked and listed as CMA lists them.
 */
describe('housekeeping', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let root: ApiClient;
  let client: Anthropic;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        AGENTRY_MODEL_PRICES: JSON.stringify(PRICES),
        AGENTRY_SESSION_RETENTION_DAYS: '2',
        AGENTRY_RETENTION_INTERVAL_MS: '1000',
      },
    });
    root = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = root.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  });
  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  async function runTurns(sessionId: string, count: number): Promise<void> {
    for (let t = 1; t <= count; t++) {
      await client.beta.sessions.events.send(sessionId, {
        events: [
          { type: 'user.message', content: [{ type: 'text', text: `message ${t} ${'x'.repeat(t * 7)}` }] },
        ],
      });
      await pollUntil(
        `turn ${t} of ${sessionId} to end`,
        async () => {
          let idles = 0;
          for await (const e of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
            if (e.type === 'session.status_idle') idles += 1;
          return idles >= t || undefined;
        },
        60_000,
      );
    }
  }

  /*
   * `GET /v1/usage` over two agents in two environments, with some sessions' usage dated the day before:
   * every group (agent, environment, model, day) equals the sum of its sessions' `usage`, the time range
   * filters by day, and the CSV export carries the same numbers.
   */
  it('usage: groups by agent, environment, model and day, filters by time and exports CSV, all equal to the sessions', async () => {
    const agents = [
      await client.beta.agents.create({ name: 'ledger-a', model: 'scripted' }),
      await client.beta.agents.create({ name: 'ledger-b', model: 'scripted' }),
    ];
    const envs = [
      await client.beta.environments.create({ name: 'usage env 1', config: { type: 'cloud' } }),
      await client.beta.environments.create({ name: 'usage env 2', config: { type: 'cloud' } }),
    ];
    const plan = [
      { agent: agents[0]!, env: envs[0]!, turns: 1, yesterday: true },
      { agent: agents[0]!, env: envs[0]!, turns: 2, yesterday: false },
      { agent: agents[0]!, env: envs[1]!, turns: 1, yesterday: false },
      { agent: agents[1]!, env: envs[1]!, turns: 2, yesterday: true },
      { agent: agents[1]!, env: envs[1]!, turns: 1, yesterday: false },
    ];
    const today = new Date();
    const yesterday = new Date(today.getTime() - DAY_MS);
    const expected = new Map<string, Totals>();
    for (const step of plan) {
      const session = await client.beta.sessions.create({
        agent: step.agent.id,
        environment_id: step.env.id,
      });
      await runTurns(session.id, step.turns);
      // The ledger dates each model call; this session's calls are moved to the day before.
      if (step.yesterday)
        await db.prisma
          .$executeRaw`UPDATE usage_ledger SET created_at = created_at - interval '1 day' WHERE session_id = ${session.id}`;
      const usage = (await client.beta.sessions.retrieve(session.id)).usage;
      const key = [step.agent.id, step.env.id, 'scripted', dayOf(step.yesterday ? yesterday : today)].join(
        '|',
      );
      const sum = expected.get(key) ?? {
        model_requests: 0,
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        cost: 0,
      };
      sum.model_requests += step.turns;
      sum.input += usage.input_tokens ?? 0;
      sum.output += usage.output_tokens ?? 0;
      sum.cacheRead += usage.cache_read_input_tokens ?? 0;
      // Agentry's session usage also carries the flat cache-write count the ledger sums.
      sum.cacheWrite += (usage as { cache_creation_input_tokens?: number }).cache_creation_input_tokens ?? 0;
      sum.cost += micros(usage.list_cost);
      expected.set(key, sum);
    }
    expect(expected.size).toBe(5);

    const report = await root.get<Page<UsageRow>>('/v1/usage?group_by=agent,environment,model,day');
    expect(report.status).toBe(200);
    const got = new Map<string, Totals>(
      report.body.data.map((row) => [
        [row.agent_id, row.environment_id, row.model, row.day].join('|'),
        {
          model_requests: row.model_requests,
          input: row.input_tokens,
          output: row.output_tokens,
          cacheRead: row.cache_read_input_tokens,
          cacheWrite: row.cache_creation_input_tokens,
          cost: micros(row.list_cost),
        },
      ]),
    );
    expect(got).toEqual(expected);
    expect([...expected.values()].every((t) => t.input > 0 && t.cost > 0)).toBe(true);

    // Only today: the sessions dated yesterday drop out.
    const todayOnly = await root.get<Page<UsageRow>>(
      `/v1/usage?group_by=agent,environment,model,day&starting_at=${dayOf(today)}`,
    );
    const todayKeys = [...expected.keys()].filter((k) => k.endsWith(dayOf(today)));
    expect(
      todayOnly.body.data.map((r) => [r.agent_id, r.environment_id, r.model, r.day].join('|')).sort(),
    ).toEqual(todayKeys.sort());
    const byEnvironment = await root.get<Page<UsageRow>>(
      `/v1/usage?group_by=environment&environment_id=${envs[1]!.id}`,
    );
    const env2 = [...expected.entries()].filter(([k]) => k.split('|')[1] === envs[1]!.id).map(([, t]) => t);
    expect(byEnvironment.body.data).toEqual([
      expect.objectContaining({
        environment_id: envs[1]!.id,
        input_tokens: env2.reduce((n, t) => n + t.input, 0),
        output_tokens: env2.reduce((n, t) => n + t.output, 0),
      }),
    ]);

    const csv = await fetch(`${platform.gatewayUrl}/v1/usage?group_by=agent,day&format=csv`, {
      headers: root.authHeaders,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = (await csv.text()).trim().split('\n');
    expect(header).toBe(
      'agent_id,day,model_requests,input_tokens,output_tokens,cache_read_input_tokens,cache_creation_input_tokens,list_cost_amount,list_cost_currency',
    );
    const json = await root.get<Page<UsageRow>>('/v1/usage?group_by=agent,day');
    expect(lines).toEqual(
      json.body.data.map((r) =>
        [
          r.agent_id,
          r.day,
          r.model_requests,
          r.input_tokens,
          r.output_tokens,
          r.cache_read_input_tokens,
          r.cache_creation_input_tokens,
          r.list_cost.amount,
          r.list_cost.currency,
        ].join(','),
      ),
    );
    expect(lines).toHaveLength(4);

    const bad = await root.get<ErrorReply>('/v1/usage?format=xml');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^format: "xml" is not one of json, csv/);
  }, 300_000);

  it('retention: deletes an archived session past its age, keeps an active one of the same age and a recently archived one', async () => {
    const agent = await client.beta.agents.create({ name: 'retained', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'retention env', config: { type: 'cloud' } });
    const open = () => client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const [expired, active, recent] = [await open(), await open(), await open()];
    await runTurns(expired.id, 1);
    await runTurns(active.id, 1);
    await client.beta.sessions.archive(expired.id);
    await client.beta.sessions.archive(recent.id);
    const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS);
    // Both old sessions look untouched for three days; only one of them is archived.
    await db.prisma
      .$executeRaw`UPDATE sessions SET archived_at = ${threeDaysAgo}, updated_at = ${threeDaysAgo} WHERE id = ${expired.id}`;
    await db.prisma.$executeRaw`UPDATE sessions SET updated_at = ${threeDaysAgo} WHERE id = ${active.id}`;

    await pollUntil(
      `archived session ${expired.id} to be deleted by retention`,
      async () => (await db.prisma.session.count({ where: { id: expired.id } })) === 0 || undefined,
      60_000,
    );
    const gone = await client.beta.sessions.retrieve(expired.id).catch((err: unknown) => err);
    expect(gone).toBeInstanceOf(Anthropic.NotFoundError);
    expect(await db.prisma.sessionEvent.count({ where: { sessionId: expired.id } })).toBe(0);
    // A later sweep has run once a session archived as long ago is gone too: the others are still there.
    const sweepsBefore = await db.prisma.session.count();
    const marker = await open();
    await client.beta.sessions.archive(marker.id);
    await db.prisma
      .$executeRaw`UPDATE sessions SET archived_at = ${threeDaysAgo}, updated_at = ${threeDaysAgo} WHERE id = ${marker.id}`;
    await pollUntil(
      `archived session ${marker.id} to be deleted by a later sweep`,
      async () => (await db.prisma.session.count({ where: { id: marker.id } })) === 0 || undefined,
      60_000,
    );
    expect(await db.prisma.session.count()).toBe(sweepsBefore);
    expect((await client.beta.sessions.retrieve(active.id)).status).toBe('idle');
    expect((await client.beta.sessions.retrieve(recent.id)).archived_at).not.toBeNull();
    const activeEvents: string[] = [];
    for await (const e of client.beta.sessions.events.list(active.id, { limit: 100 }))
      activeEvents.push(e.type);
    expect(activeEvents).toContain('agent.message');
  }, 180_000);

  it('cron: refuses expressions the engine cannot run with a 400 naming the field, and lists upcoming runs as the cron library computes them', async () => {
    const agent = await client.beta.agents.create({ name: 'scheduled', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'cron env', config: { type: 'cloud' } });
    const create = (expression: string, timezone: string) =>
      client.beta.deployments.create({
        name: `cron ${expression}`,
        agent: agent.id,
        environment_id: env.id,
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'tick' }] }],
        schedule: { type: 'cron', expression, timezone },
      });
    for (const expression of ['60 * * * *', 'foo bar baz qux quux']) {
      const refused = await create(expression, 'UTC').catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as InstanceType<typeof Anthropic.BadRequestError>).status).toBe(400);
      expect(String((refused as Error).message)).toContain('schedule.expression');
    }
    // Sundays of a month with a daylight-saving change: the next five fires cross it (02:30 in Sydney is skipped).
    const schedules: Array<[string, string]> = [
      ['0 12 * 3 0', 'Europe/Berlin'],
      ['0 12 * 10 0', 'Europe/Berlin'],
      ['0 1 * 3 0', 'America/New_York'],
      ['0 0 * 11 0', 'America/New_York'],
      ['30 2 * 10 0', 'Australia/Sydney'],
    ];
    for (const [expression, timezone] of schedules) {
      const before = new Date();
      const created = await create(expression, timezone);
      const expected = CronExpressionParser.parse(expression, { tz: timezone, currentDate: before })
        .take(5)
        .map((d) => d.toDate().toISOString());
      expect(created.schedule?.upcoming_runs_at).toEqual(expected);
      expect((await client.beta.deployments.retrieve(created.id)).schedule?.upcoming_runs_at).toEqual(
        expected,
      );
      const offsets = new Set(expected.map((t) => new Date(t).getUTCHours()));
      expect(offsets.size).toBeGreaterThan(1);
      const archived = await client.beta.deployments.archive(created.id);
      expect(archived.schedule?.upcoming_runs_at).toEqual([]);
    }
  });

  /*
   * CMA dreams over a store of three memories, through every method of the official SDK's `beta.dreams`.
   * The scripted model answers with the text it was sent, so the instructions carry the store the model
   * "writes"; the current memories reach it in another tag and are not taken for its answer.
   */
  it('dreams: rewrite a store of three memories as new versions, old versions readable, through every SDK method', async () => {
    const store = await client.beta.memoryStores.create({ name: 'dream notes' });
    const originals = { '/food.md': 'Likes oranges', '/drink.md': 'Drinks tea', '/name.md': 'Is called Ada' };
    for (const [path, content] of Object.entries(originals))
      await client.beta.memoryStores.memories.create(store.id, { path, content });
    const profile = 'Ada: drinks tea, likes oranges';
    const instructions = `Merge everything into one profile.\n<memory path="/profile.md">\n${profile}\n</memory>`;
    const finished = (id: string) =>
      pollUntil(
        `dream ${id} to end`,
        async () => {
          const dream = await client.beta.dreams.retrieve(id);
          return dream.status === 'pending' || dream.status === 'running' ? undefined : dream;
        },
        30_000,
      );
    const liveMemories = async (storeId: string) => {
      const found: Record<string, string> = {};
      for await (const m of client.beta.memoryStores.memories.list(storeId, { view: 'full' }))
        if (m.type === 'memory') found[m.path] = m.content ?? '';
      return found;
    };
    const versionsOf = async (storeId: string) => {
      const all: Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryVersion[] = [];
      for await (const v of client.beta.memoryStores.memoryVersions.list(storeId, { view: 'full' }))
        all.push(v);
      return all;
    };

    // Default `create_new`: the result goes to a new store that starts as a copy; the input is untouched.
    const created: Anthropic.Beta.Dreams.BetaDream = await client.beta.dreams.create({
      inputs: [{ type: 'memory_store', memory_store_id: store.id }],
      model: 'scripted',
      instructions,
    });
    expect(created).toMatchObject({
      type: 'dream',
      status: 'pending',
      outputs: [],
      output_behavior: { type: 'create_new' },
      model: { id: 'scripted' },
      ended_at: null,
    });
    const copied = await finished(created.id);
    expect(copied.status).toBe('completed');
    expect(copied.ended_at).toEqual(expect.any(String));
    expect(copied.usage.input_tokens).toBeGreaterThan(0);
    expect(copied.usage.output_tokens).toBeGreaterThan(0);
    const outputId = copied.outputs[0]!.memory_store_id;
    expect(outputId).not.toBe(store.id);
    expect(await liveMemories(outputId)).toEqual({ '/profile.md': profile });
    expect(await liveMemories(store.id)).toEqual(originals);
    // The copy's history: each original created then deleted, the profile created; the originals stay readable.
    const copyHistory = await versionsOf(outputId);
    for (const [path, content] of Object.entries(originals)) {
      const ops = copyHistory.filter((v) => v.path === path);
      expect(ops.map((v) => v.operation).sort()).toEqual(['created', 'deleted']);
      const first = ops.find((v) => v.operation === 'created')!;
      const read = await client.beta.memoryStores.memoryVersions.retrieve(first.id, {
        memory_store_id: outputId,
      });
      expect(read.content).toBe(content);
    }

    // `update_existing`: the input store itself gets the new versions.
    const inPlace = await client.beta.dreams.create({
      inputs: [{ type: 'memory_store', memory_store_id: store.id }],
      model: { id: 'scripted', speed: 'standard' },
      instructions,
      output_behavior: { type: 'update_existing', memory_store_id: store.id },
    });
    const updated = await finished(inPlace.id);
    expect(updated).toMatchObject({
      status: 'completed',
      outputs: [{ type: 'memory_store', memory_store_id: store.id }],
    });
    expect(await liveMemories(store.id)).toEqual({ '/profile.md': profile });
    const history = await versionsOf(store.id);
    for (const [path, content] of Object.entries(originals)) {
      const created = history.find((v) => v.path === path && v.operation === 'created')!;
      expect(history.some((v) => v.path === path && v.operation === 'deleted')).toBe(true);
      const read = await client.beta.memoryStores.memoryVersions.retrieve(created.id, {
        memory_store_id: store.id,
      });
      expect(read.content).toBe(content);
    }

    // A reply with no memory in it fails the dream and leaves the store as it was.
    const unusable = await finished(
      (
        await client.beta.dreams.create({
          inputs: [{ type: 'memory_store', memory_store_id: store.id }],
          model: 'scripted',
          output_behavior: { type: 'update_existing', memory_store_id: store.id },
        })
      ).id,
    );
    expect(unusable).toMatchObject({ status: 'failed', error: { type: 'invalid_model_output' } });
    expect(await liveMemories(store.id)).toEqual({ '/profile.md': profile });

    // Each dream's model call is the tenant's usage: a row with no agent in the usage report.
    const dreamed = [copied, updated, unusable];
    const report = await root.get<Page<UsageRow>>('/v1/usage?group_by=agent');
    const unattributed = report.body.data.find((row) => row.agent_id === null);
    expect(unattributed).toMatchObject({
      model_requests: dreamed.length,
      input_tokens: dreamed.reduce((n, d) => n + d.usage.input_tokens, 0),
      output_tokens: dreamed.reduce((n, d) => n + d.usage.output_tokens, 0),
    });

    // list: newest first, filtered by status; archive hides a dream from the default list only.
    const listed: string[] = [];
    for await (const d of client.beta.dreams.list({ statuses: ['completed'] })) listed.push(d.id);
    expect(listed).toEqual([inPlace.id, created.id]);
    const archived = await client.beta.dreams.archive(created.id);
    expect(archived.archived_at).toEqual(expect.any(String));
    const visible: string[] = [];
    for await (const d of client.beta.dreams.list()) visible.push(d.id);
    expect(visible).toEqual([unusable.id, inPlace.id]);
    const all: string[] = [];
    for await (const d of client.beta.dreams.list({ include_archived: true })) all.push(d.id);
    expect(all).toEqual([unusable.id, inPlace.id, created.id]);
    expect((await client.beta.dreams.retrieve(created.id)).archived_at).toBe(archived.archived_at);

    // cancel: an ended dream refuses it; one no job has started yet is canceled and never runs.
    await expect(client.beta.dreams.cancel(inPlace.id)).rejects.toMatchObject({ status: 400 });
    const owner = await db.prisma.memoryStore.findUniqueOrThrow({ where: { id: store.id } });
    const waiting = await db.prisma.dream.create({
      data: {
        id: `drm_waiting_${store.id}`,
        tenantId: owner.tenantId,
        namespaceId: owner.namespaceId,
        status: 'pending',
        inputs: [{ type: 'memory_store', memory_store_id: store.id }],
        model: { id: 'scripted', speed: 'standard' },
        outputBehavior: { type: 'update_existing', memory_store_id: store.id },
        outputStoreId: store.id,
        createdBy: {},
      },
    });
    // While it holds the store, a second in-place dream on it is refused.
    await expect(
      client.beta.dreams.create({
        inputs: [{ type: 'memory_store', memory_store_id: store.id }],
        model: 'scripted',
        output_behavior: { type: 'update_existing', memory_store_id: store.id },
      }),
    ).rejects.toMatchObject({ status: 409 });
    await expect(client.beta.dreams.archive(waiting.id)).rejects.toMatchObject({ status: 400 });
    const canceled = await client.beta.dreams.cancel(waiting.id);
    expect(canceled).toMatchObject({ status: 'canceled' });
    expect(canceled.ended_at).toEqual(expect.any(String));
    expect(await client.beta.dreams.cancel(waiting.id)).toMatchObject({
      status: 'canceled',
      ended_at: canceled.ended_at,
    });

    // Bad input: a typed 400 naming the field.
    const misdirected = await client.beta.dreams
      .create({
        inputs: [{ type: 'memory_store', memory_store_id: store.id }],
        model: 'scripted',
        output_behavior: { type: 'update_existing', memory_store_id: outputId },
      })
      .catch((err: unknown) => err);
    expect(misdirected).toBeInstanceOf(Anthropic.BadRequestError);
    expect((misdirected as Error).message).toContain('output_behavior.memory_store_id');
    const inputless = await client.beta.dreams
      .create({ inputs: [], model: 'scripted' })
      .catch((err: unknown) => err);
    expect(inputless).toBeInstanceOf(Anthropic.BadRequestError);
    expect((inputless as Error).message).toContain('memory_store');
  });
});
