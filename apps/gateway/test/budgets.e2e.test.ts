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
import type { ErrorReply, Page, UsageRow } from './wire-types.js';

type Amount = { amount: string; currency: string };

/** A session event, read for what these tests look at: each field is on some event types only. */
interface SessionEvent {
  id: string;
  type: string;
  stop_reason?: { type: string };
  error?: { message: string };
  is_error?: boolean;
  model_usage?: { list_cost: Amount; input_tokens: number };
  usage?: unknown;
  budget?: unknown;
  content?: Array<{ type: string; text?: string }>;
}

/** Prices and quotas the platform runs with here: the scripted model costs 0.0001 USD an input token, 0.0002 an output token. */
const PRICES = { scripted: { input: 100, output: 200 } };
const OUTPUT_RESERVE_TOKENS = 20;
const QUOTA_TENANT = 'quota-co';
const DAILY_TOKEN_QUOTA = 2_000;

const micros = (amount: Amount | undefined) => Math.round(Number(amount?.amount ?? '0') * 1_000_000);

/** Session budgets and tenant quotas as admission control, through the official SDK where CMA has the surface. */
describe('budgets: session budgets, tenant quotas and the usage ledger', () => {
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
        AGENTRY_BUDGET_OUTPUT_RESERVE_TOKENS: String(OUTPUT_RESERVE_TOKENS),
        AGENTRY_TENANT_QUOTAS: JSON.stringify({ [QUOTA_TENANT]: { daily: { tokens: DAILY_TOKEN_QUOTA } } }),
      },
    });
    root = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    client = sdkFor(root);
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  function sdkFor(api: ApiClient): Anthropic {
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    return new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  }

  async function events(sdk: Anthropic, sessionId: string): Promise<SessionEvent[]> {
    const all: SessionEvent[] = [];
    for await (const event of sdk.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as SessionEvent);
    return all;
  }

  /** Sends one message and waits (polling with a deadline) for the idle status that ends its turn. */
  async function turn(sdk: Anthropic, sessionId: string, text: string): Promise<SessionEvent> {
    const idles = (await events(sdk, sessionId)).filter((e) => e.type === 'session.status_idle').length;
    await sdk.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });
    return pollUntil(
      `session ${sessionId} to go idle`,
      async () => {
        const idle = (await events(sdk, sessionId)).filter((e) => e.type === 'session.status_idle');
        return idle.length > idles ? idle.at(-1) : undefined;
      },
      60_000,
    );
  }

  /** Sends messages until a turn stops on a cap; returns how many turns ended normally before it. */
  async function spendUntilStopped(sdk: Anthropic, sessionId: string): Promise<number> {
    for (let done = 0; done < 60; done++) {
      const idle = await turn(sdk, sessionId, `message ${done}`);
      if (idle.stop_reason?.type === 'budget_reached') return done;
      expect(idle.stop_reason).toEqual({ type: 'end_turn' });
    }
    throw new Error('the cap was never reached');
  }

  it('stops a session at its budget before passing it, refuses new messages, and continues once the budget is raised', async () => {
    const agent = await client.beta.agents.create({ name: 'budgeted', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'budget env', config: { type: 'cloud' } });
    const budget = { type: 'limit' as const, max_list_cost: { amount: '0.25', currency: 'USD' as const } };
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id, budget });
    expect(session.budget).toEqual(budget);

    const turnsBefore = await spendUntilStopped(client, session.id);
    expect(turnsBefore).toBeGreaterThan(1);

    const log = await events(client, session.id);
    const error = log.filter((e) => e.type === 'session.error').at(-1)!;
    expect(error.error).toMatchObject({ type: 'billing_error', retry_status: { type: 'terminal' } });
    expect(error.error?.message).toMatch(/session's budget of 0\.25 USD is reached/);
    const stopped = await client.beta.sessions.retrieve(session.id);
    expect(stopped).toMatchObject({ status: 'idle', budget });
    const spent = micros(stopped.usage.list_cost ?? undefined);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(250_000);

    // The list cost of every model span and the last usage snapshot add up to the session's usage.
    const spans = log.filter((e) => e.type === 'span.model_request_end' && !e.is_error);
    expect(spans.length).toBe(turnsBefore);
    expect(spans.reduce((n, e) => n + micros(e.model_usage!.list_cost), 0)).toBe(spent);
    expect(spans.reduce((n, e) => n + e.model_usage!.input_tokens, 0)).toBe(stopped.usage.input_tokens);
    const snapshot = log.filter((e) => e.type === 'session.usage').at(-1)!;
    expect(snapshot.usage).toMatchObject({
      input_tokens: stopped.usage.input_tokens,
      output_tokens: stopped.usage.output_tokens,
      list_cost: stopped.usage.list_cost,
    });
    expect(snapshot.budget).toEqual(budget);

    // At the cap only settle events get in.
    const refused = await client.beta.sessions.events
      .send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'one more' }] }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as Error).message).toMatch(/budget of 0\.25 USD is reached.*Raise or remove the budget/);
    await expect(
      client.beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] }),
    ).resolves.toBeDefined();

    // The cap may be raised (not to or below what is spent), and the session goes on.
    const lowered = await client.beta.sessions
      .update(session.id, {
        budget: { type: 'limit', max_list_cost: { amount: (spent / 1_000_000).toFixed(6), currency: 'USD' } },
      })
      .catch((e: unknown) => e);
    expect(lowered).toBeInstanceOf(Anthropic.BadRequestError);
    expect((lowered as Error).message).toMatch(/budget_not_raised/);
    const raised = await client.beta.sessions.update(session.id, {
      budget: { type: 'limit', max_list_cost: { amount: '5.00', currency: 'USD' } },
    });
    expect(raised.budget?.max_list_cost.amount).toBe('5.00');
    const resumed = await turn(client, session.id, 'after the raise');
    expect(resumed.stop_reason).toEqual({ type: 'end_turn' });
    const reply = (await events(client, session.id)).filter((e) => e.type === 'agent.message').at(-1)!;
    expect(reply.content?.[0]?.text).toBe('You said: after the raise');
    expect(
      micros((await client.beta.sessions.retrieve(session.id)).usage.list_cost ?? undefined),
    ).toBeGreaterThan(spent);
  });

  it('can remove a budget, but never add one to a session created without', async () => {
    const agent = await client.beta.agents.create({ name: 'uncapped', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'uncapped env', config: { type: 'cloud' } });
    const uncapped = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const added = await client.beta.sessions
      .update(uncapped.id, { budget: { type: 'limit', max_list_cost: { amount: '1.00', currency: 'USD' } } })
      .catch((e: unknown) => e);
    expect(added).toBeInstanceOf(Anthropic.BadRequestError);
    expect((added as Error).message).toMatch(/budget_create_only/);
    expect((await client.beta.sessions.retrieve(uncapped.id)).budget).toBeNull();

    const capped = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      budget: { type: 'limit', max_list_cost: { amount: '0.001', currency: 'USD' } },
    });
    expect((await turn(client, capped.id, 'too dear')).stop_reason).toEqual({ type: 'budget_reached' });
    expect((await client.beta.sessions.update(capped.id, { budget: null })).budget).toBeNull();
    expect((await turn(client, capped.id, 'free now')).stop_reason).toEqual({ type: 'end_turn' });
    const readded = await client.beta.sessions
      .update(capped.id, { budget: { type: 'limit', max_list_cost: { amount: '9.00', currency: 'USD' } } })
      .catch((e: unknown) => e);
    expect(readded).toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('enforces a tenant daily token quota the same way, and refuses new work in every session of the tenant', async () => {
    const created = await root.post('/v1/tenants', {
      name: 'Quota Co',
      slug: QUOTA_TENANT,
      admin: { username: 'quinn', password: 'quinn-pass-1' },
    });
    expect(created.status).toBe(200);
    const tenantAdmin = await new ApiClient(platform.gatewayUrl).login('quinn', 'quinn-pass-1');
    const sdk = sdkFor(tenantAdmin);
    const agent = await sdk.beta.agents.create({ name: 'quota agent', model: 'scripted' });
    const env = await sdk.beta.environments.create({ name: 'quota env', config: { type: 'cloud' } });
    const session = await sdk.beta.sessions.create({ agent: agent.id, environment_id: env.id });

    expect(await spendUntilStopped(sdk, session.id)).toBeGreaterThan(0);
    const error = (await events(sdk, session.id)).filter((e) => e.type === 'session.error').at(-1)!;
    expect(error.error?.message).toMatch(
      new RegExp(`tenant's daily quota of ${DAILY_TOKEN_QUOTA} tokens is reached`),
    );

    const today = new Date().toISOString().slice(0, 10);
    const usage = await tenantAdmin.get<Page<UsageRow>>('/v1/usage?group_by=day');
    expect(usage.status).toBe(200);
    expect(usage.body.data).toHaveLength(1);
    const row = usage.body.data[0]!;
    expect(row.day).toBe(today);
    expect(row.input_tokens + row.output_tokens).toBeLessThanOrEqual(DAILY_TOKEN_QUOTA);

    const again = await sdk.beta.sessions.events
      .send(session.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'more' }] }] })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Anthropic.BadRequestError);
    expect((again as Error).message).toMatch(/daily quota/);
    const fresh = await sdk.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const elsewhere = await sdk.beta.sessions.events
      .send(fresh.id, { events: [{ type: 'user.message', content: [{ type: 'text', text: 'hello' }] }] })
      .catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(Anthropic.BadRequestError);
    expect((elsewhere as Error).message).toMatch(/daily quota of 2000 tokens/);

    // The installation's own tenant has no quota: its sessions still run.
    const home = await client.beta.sessions.create({
      agent: (await client.beta.agents.create({ name: 'home', model: 'scripted' })).id,
      environment_id: (await client.beta.environments.create({ name: 'home env', config: { type: 'cloud' } }))
        .id,
    });
    expect((await turn(client, home.id, 'still free')).stop_reason).toEqual({ type: 'end_turn' });
  });

  it('keeps a usage ledger whose sums per session, agent and day match the sessions', async () => {
    const agent = await client.beta.agents.create({ name: 'ledgered', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'ledger env', config: { type: 'cloud' } });
    const sessions = [
      await client.beta.sessions.create({ agent: agent.id, environment_id: env.id }),
      await client.beta.sessions.create({ agent: agent.id, environment_id: env.id }),
    ];
    for (const [i, s] of sessions.entries())
      for (let t = 0; t <= i + 1; t++) await turn(client, s.id, `turn ${t}`);

    const totals = { input_tokens: 0, output_tokens: 0, cost: 0 };
    for (const s of sessions) {
      const usage = (await client.beta.sessions.retrieve(s.id)).usage;
      const bySession = await root.get<Page<UsageRow>>(`/v1/usage?session_id=${s.id}`);
      expect(bySession.status).toBe(200);
      expect(bySession.body.data).toEqual([
        expect.objectContaining({
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          list_cost: usage.list_cost,
        }),
      ]);
      totals.input_tokens += usage.input_tokens!;
      totals.output_tokens += usage.output_tokens!;
      totals.cost += micros(usage.list_cost ?? undefined);
    }
    const byAgentDay = await root.get<Page<UsageRow>>(`/v1/usage?group_by=agent,day&agent_id=${agent.id}`);
    expect(byAgentDay.status).toBe(200);
    expect(byAgentDay.body.data).toHaveLength(1);
    const row = byAgentDay.body.data[0]!;
    expect(row).toMatchObject({
      agent_id: agent.id,
      day: new Date().toISOString().slice(0, 10),
      model_requests: 5,
    });
    expect(row).toMatchObject({ input_tokens: totals.input_tokens, output_tokens: totals.output_tokens });
    expect(micros(row.list_cost)).toBe(totals.cost);

    const bad = await root.get<ErrorReply>('/v1/usage?group_by=week');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /group_by.*"week" is not one of agent, environment, session, model, day/,
    );
  });
});
