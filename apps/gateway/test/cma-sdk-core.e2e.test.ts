import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

/** The official SDK against our gateway: agents, environments, sessions and one scripted turn. */
describe('CMA SDK: agents, environments and sessions', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username: 'admin',
      password: 'admin',
    });
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: login.body.token,
      apiKey: null,
      maxRetries: 0,
    });
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('creates, versions, lists and archives agents, with a stale update as a ConflictError', async () => {
    const agent = await client.beta.agents.create({
      name: 'sdk agent',
      model: 'scripted',
      system: 'one',
      metadata: { team: 'core' },
    });
    expect(agent).toMatchObject({
      type: 'agent',
      version: 1,
      name: 'sdk agent',
      model: { id: 'scripted' },
      archived_at: null,
    });

    const updated = await client.beta.agents.update(agent.id, {
      version: 1,
      system: 'two',
      metadata: { team: null, tier: 'gold' },
    });
    expect(updated).toMatchObject({ version: 2, system: 'two', metadata: { tier: 'gold' } });
    const stale = await client.beta.agents
      .update(agent.id, { version: 1, system: 'three' })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(Anthropic.ConflictError);
    expect((stale as InstanceType<typeof Anthropic.APIError>).status).toBe(409);
    expect((await client.beta.agents.retrieve(agent.id)).system).toBe('two');
    expect((await client.beta.agents.retrieve(agent.id, { version: 1 })).system).toBe('one');

    const versions = [];
    for await (const v of client.beta.agents.versions.list(agent.id, { limit: 1 })) versions.push(v.version);
    expect(versions).toEqual([2, 1]);

    const archived = await client.beta.agents.archive(agent.id);
    expect(archived.archived_at).toEqual(expect.any(String));
    const live = await client.beta.agents.list({ limit: 100 });
    expect(live.data.map((a) => a.id)).not.toContain(agent.id);
    const all = await client.beta.agents.list({ limit: 100, include_archived: true });
    expect(all.data.map((a) => a.id)).toContain(agent.id);
  });

  it('runs the environment lifecycle: update, list, archive and delete once no live session uses it', async () => {
    const env = await client.beta.environments.create({
      name: 'sdk env',
      config: { type: 'cloud', networking: { type: 'unrestricted' } },
    });
    expect(env).toMatchObject({
      type: 'environment',
      name: 'sdk env',
      config: { type: 'cloud' },
      archived_at: null,
    });
    const updated = await client.beta.environments.update(env.id, {
      description: 'for tests',
      metadata: { owner: 'qa' },
    });
    expect(updated).toMatchObject({ description: 'for tests', metadata: { owner: 'qa' } });
    expect(await client.beta.environments.retrieve(env.id)).toEqual(updated);
    const changedType = await client.beta.environments
      .update(env.id, { config: { type: 'self_hosted' } })
      .catch((e: unknown) => e);
    expect(changedType).toBeInstanceOf(Anthropic.BadRequestError);

    const listed = await client.beta.environments.list({ limit: 100 });
    expect(listed.data.map((e) => e.id)).toContain(env.id);

    const agent = await client.beta.agents.create({ name: 'env user', model: 'scripted' });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const refused = await client.beta.environments.delete(env.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.ConflictError);
    await client.beta.sessions.archive(session.id);

    const archived = await client.beta.environments.archive(env.id);
    expect(archived.archived_at).toEqual(expect.any(String));
    const deleted = await client.beta.environments.delete(env.id);
    expect(deleted).toEqual({ id: env.id, type: 'environment_deleted' });
    expect(await client.beta.environments.retrieve(env.id).catch((e: unknown) => e)).toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it('creates, pages both ways, updates, archives and deletes sessions', async () => {
    const agent = await client.beta.agents.create({ name: 'session agent', model: 'scripted' });
    await client.beta.agents.update(agent.id, { version: 1, system: 'second' });
    const env = await client.beta.environments.create({ name: 'session env', config: { type: 'cloud' } });
    const pinned = await client.beta.sessions.create({
      agent: { type: 'agent', id: agent.id, version: 1 },
      environment_id: env.id,
    });
    expect(pinned.agent).toMatchObject({ id: agent.id, version: 1, system: null });
    const made = [pinned.id];
    for (let i = 0; i < 4; i++)
      made.push(
        (await client.beta.sessions.create({ agent: agent.id, environment_id: env.id, title: `s${i}` })).id,
      );
    const newestFirst = [...made].reverse();

    const p1 = await client.beta.sessions.list({ agent_id: agent.id, limit: 2 });
    expect(p1.data.map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(p1.prev_page).toBeNull();
    const p2 = await p1.getNextPage();
    expect(p2.data.map((s) => s.id)).toEqual(newestFirst.slice(2, 4));
    const back = await client.beta.sessions.list({ agent_id: agent.id, limit: 2, page: p2.prev_page });
    expect(back.data.map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    const asc = await client.beta.sessions.list({
      agent_id: agent.id,
      agent_version: 1,
      order: 'asc',
      statuses: ['idle'],
    });
    expect(asc.data.map((s) => s.id)).toEqual([pinned.id]);
    expect(
      (await client.beta.sessions.list({ agent_id: agent.id, statuses: ['running', 'terminated'] })).data,
    ).toEqual([]);

    const updated = await client.beta.sessions.update(pinned.id, {
      title: 'renamed',
      metadata: { run: '1' },
    });
    expect(updated).toMatchObject({ title: 'renamed', metadata: { run: '1' }, status: 'idle' });
    expect((await client.beta.sessions.retrieve(pinned.id)).title).toBe('renamed');

    const archived = await client.beta.sessions.archive(pinned.id);
    expect(archived.archived_at).toEqual(expect.any(String));
    const remaining = await client.beta.sessions.list({ agent_id: agent.id, limit: 100 });
    expect(remaining.data.map((s) => s.id)).not.toContain(pinned.id);
    const deleted = await client.beta.sessions.delete(made[1]!);
    expect(deleted).toEqual({ id: made[1], type: 'session_deleted' });
    expect(await client.beta.sessions.retrieve(made[1]!).catch((e: unknown) => e)).toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it('sends a message, streams the scripted reply and lists the same events', async () => {
    const agent = await client.beta.agents.create({ name: 'echo', model: { id: 'scripted' } });
    const env = await client.beta.environments.create({ name: 'echo env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });

    const stream = await client.beta.sessions.events.stream(session.id);
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hello there' }] }],
    });
    const streamed: string[] = [];
    let reply = '';
    for await (const event of stream) {
      if ('id' in event) streamed.push(event.id);
      if (event.type === 'agent.message')
        reply = event.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if (event.type === 'session.status_idle') break;
    }
    expect(reply).toBe('You said: hello there');

    const listed = [];
    for await (const event of client.beta.sessions.events.list(session.id, { limit: 1000 }))
      listed.push(event.id);
    expect(listed).toEqual(streamed);
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe('idle');
  });
});
