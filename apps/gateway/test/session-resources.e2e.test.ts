import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeOtlpReceiver,
  GitHttpServer,
  launchPlatform,
  pollUntil,
  registerSecrets,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const TOKEN = 'ghp_e2eRESOURCEtoken7Qx41';
const ROTATED = 'ghp_e2eROTATEDtoken9Kd22';
registerSecrets('repository token', { first: TOKEN, rotated: ROTATED });

type LoggedEvent = { id: string; type: string } & Record<string, unknown>;

/**
 * CMA session resources through the official SDK on five processes: the routes, a repository token that
 * is sealed and never returned, and a repository cloned from a local git server into the session's Hands.
 */
describe('session resources', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  // The services' traces are exported here, so the end-of-run secret scan reads them too.
  let otlp: FakeOtlpReceiver;
  let git: GitHttpServer;
  let client: Anthropic;
  /** Every response body the SDK received in this file, to prove no token ever came back. */
  const bodies: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    git = await GitHttpServer.start({
      name: 'widgets',
      token: TOKEN,
      files: { 'README.md': 'widgets: cloned from the local git server\n' },
    });
    otlp = await FakeOtlpReceiver.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 300_000,
      env: {
        ...otlp.exportEnv,
        AGENTRY_LOG_LEVEL: 'debug',
        AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${git.port}`,
      },
    });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.headers.get('content-type')?.includes('text/event-stream'))
        bodies.push(await response.clone().text());
      return response;
    };
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: api.authHeaders.authorization!.replace(/^Bearer /, ''),
      apiKey: null,
      maxRetries: 0,
      fetch: recordingFetch,
    });
  }, 360_000);

  afterAll(async () => {
    await platform?.stop();
    await otlp?.stop();
    await git?.close();
    await db?.drop();
  });

  afterAll(() => {
    // Checked last, over every body of every test in the file.
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(body).not.toContain(TOKEN);
      expect(body).not.toContain(ROTATED);
    }
  });

  async function history(sessionId: string): Promise<LoggedEvent[]> {
    const all: LoggedEvent[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as LoggedEvent);
    return all;
  }

  /** The log once the turn answering the last user message has ended (a new session may already log an idle). */
  function idle(sessionId: string, timeoutMs = 90_000): Promise<LoggedEvent[]> {
    return pollUntil(
      `session ${sessionId} to end its turn`,
      async () => {
        const log = await history(sessionId);
        const lastMessage = log.findLastIndex((e) => e.type === 'user.message');
        const ended = log
          .slice(lastMessage + 1)
          .some(
            (e) =>
              e.type === 'session.status_idle' &&
              (e as { stop_reason?: { type?: string } }).stop_reason?.type === 'end_turn',
          );
        return lastMessage >= 0 && ended ? log : undefined;
      },
      timeoutMs,
    );
  }

  it('lists, adds, retrieves, rotates and deletes resources with the SDK, never returning the token', async () => {
    const agent = await client.beta.agents.create({ name: 'resources', model: 'scripted' });
    const environment = await client.beta.environments.create({
      name: 'res-cloud',
      config: { type: 'cloud' },
    });
    const notes = await client.beta.files.upload({
      file: new File(['meeting notes\n'], 'notes.txt', { type: 'text/plain' }),
    });
    const store = await client.beta.memoryStores.create({
      name: 'Team Preferences',
      description: 'what the team likes',
    });

    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      resources: [
        {
          type: 'github_repository',
          url: git.url,
          authorization_token: TOKEN,
          checkout: { type: 'branch', name: 'main' },
        },
        {
          type: 'memory_store',
          memory_store_id: store.id,
          access: 'read_only',
          instructions: 'Check before answering.',
        },
      ],
    });
    expect(session.resources).toHaveLength(2);
    const [repo, memory] = session.resources as unknown as Array<Record<string, unknown>>;
    expect(repo).toMatchObject({
      type: 'github_repository',
      url: git.url,
      mount_path: '/workspace/widgets',
      checkout: { type: 'branch', name: 'main' },
    });
    expect(repo!.id).toMatch(/^sesrsc_/);
    expect(repo).not.toHaveProperty('authorization_token');
    expect(memory).toMatchObject({
      type: 'memory_store',
      memory_store_id: store.id,
      access: 'read_only',
      instructions: 'Check before answering.',
      mount_path: '/mnt/memory/team-preferences',
      name: 'Team Preferences',
      description: 'what the team likes',
    });

    const added = await client.beta.sessions.resources.add(session.id, { type: 'file', file_id: notes.id });
    expect(added).toMatchObject({
      type: 'file',
      file_id: notes.id,
      mount_path: `/mnt/session/uploads/${notes.id}`,
    });

    const listed = [];
    for await (const resource of client.beta.sessions.resources.list(session.id)) listed.push(resource);
    expect(listed.map((r) => r.type)).toEqual(['github_repository', 'memory_store', 'file']);

    const rotated = await client.beta.sessions.resources.update(repo!.id as string, {
      session_id: session.id,
      authorization_token: ROTATED,
    });
    expect(rotated).toMatchObject({ id: repo!.id, type: 'github_repository', url: git.url });
    expect(Date.parse((rotated as { updated_at: string }).updated_at)).toBeGreaterThanOrEqual(
      Date.parse(repo!.updated_at as string),
    );

    const fetched = await client.beta.sessions.resources.retrieve(added.id, { session_id: session.id });
    expect(fetched).toEqual(added);
    expect(await client.beta.sessions.resources.delete(added.id, { session_id: session.id })).toEqual({
      id: added.id,
      type: 'session_resource_deleted',
    });
    await expect(
      client.beta.sessions.resources.retrieve(added.id, { session_id: session.id }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);

    const again = await client.beta.sessions.retrieve(session.id);
    expect(again.resources.map((r) => r.type)).toEqual(['github_repository', 'memory_store']);
    const page = [];
    for await (const s of client.beta.sessions.list({ limit: 100 })) page.push(s);
    expect(page.find((s) => s.id === session.id)?.resources).toHaveLength(2);
  }, 120_000);

  it('answers bad resources with a typed 4xx saying what is wrong, and changes nothing', async () => {
    const agent = await client.beta.agents.create({ name: 'bad-input', model: 'scripted' });
    const environment = await client.beta.environments.create({ name: 'res-bad', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    const file = await client.beta.files.upload({ file: new File(['x'], 'x.txt', { type: 'text/plain' }) });
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (e: unknown) => e as InstanceType<typeof Anthropic.APIError>,
      );

    const missingFile = await failure(
      client.beta.sessions.resources.add(session.id, { type: 'file', file_id: 'file_01MISSING' }),
    );
    expect(missingFile).toBeInstanceOf(Anthropic.NotFoundError);
    expect(missingFile!.message).toContain('file_id');

    const relative = await failure(
      client.beta.sessions.resources.add(session.id, {
        type: 'file',
        file_id: file.id,
        mount_path: 'relative/path',
      }),
    );
    expect(relative).toBeInstanceOf(Anthropic.BadRequestError);
    expect(relative!.message).toContain('mount_path');

    const repoType = await failure(
      client.beta.sessions.resources.add(session.id, { type: 'github_repository', url: git.url } as never),
    );
    expect(repoType).toBeInstanceOf(Anthropic.BadRequestError);

    const first = await client.beta.sessions.resources.add(session.id, {
      type: 'file',
      file_id: file.id,
      mount_path: '/data/x.txt',
    });
    const clash = await failure(
      client.beta.sessions.resources.add(session.id, {
        type: 'file',
        file_id: file.id,
        mount_path: '/data/x.txt',
      }),
    );
    expect(clash).toBeInstanceOf(Anthropic.BadRequestError);
    expect(clash!.message).toContain('overlap');

    const notRepo = await failure(
      client.beta.sessions.resources.update(first.id, { session_id: session.id, authorization_token: 'x' }),
    );
    expect(notRepo).toBeInstanceOf(Anthropic.BadRequestError);
    expect(notRepo!.message).toContain('github_repository');

    const missingStore = await failure(
      client.beta.sessions.create({
        agent: agent.id,
        environment_id: environment.id,
        resources: [{ type: 'memory_store', memory_store_id: 'memstore_01MISSING' }],
      }),
    );
    expect(missingStore).toBeInstanceOf(Anthropic.NotFoundError);
    expect(missingStore!.message).toContain('memory_store_id');

    const otherSession = await failure(client.beta.sessions.resources.list('sesn_01NOSUCHSESSION'));
    expect(otherSession).toBeInstanceOf(Anthropic.NotFoundError);

    const listed = [];
    for await (const resource of client.beta.sessions.resources.list(session.id)) listed.push(resource);
    expect(listed).toEqual([first]);
  }, 120_000);

  it('clones a repository from a local git server into the workspace at session start, with the token sent only to the git server', async () => {
    const script = {
      turns: [
        {
          match: 'repo',
          reply: [
            {
              toolCall: {
                name: 'bash',
                input: {
                  command:
                    'cat /workspace/widgets/README.md; git -C /workspace/widgets rev-parse HEAD; cat /workspace/widgets/.git/config',
                },
              },
            },
            'Read: {{tool_results}}',
          ],
        },
      ],
    };
    const agent = await client.beta.agents.create({
      name: 'reads the repo',
      model: { id: 'scripted', script } as never,
      tools: [
        { type: 'agent_toolset_20260401', default_config: { permission_policy: { type: 'always_allow' } } },
      ],
    });
    const environment = await client.beta.environments.create({
      name: 'res-local',
      config: { type: 'local' } as never,
    });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: environment.id,
      resources: [{ type: 'github_repository', url: git.url, authorization_token: TOKEN }],
    });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'read the repo' }] }],
    });
    const log = await idle(session.id);

    const result = JSON.stringify(log.find((e) => e.type === 'agent.tool_result')?.content);
    expect(result).toContain('widgets: cloned from the local git server');
    expect(result).toContain(git.headCommit);
    expect(result).toContain(git.url);
    const sent = git.authorizations
      .filter(Boolean)
      .map((h) => Buffer.from(h!.replace(/^Basic /, ''), 'base64').toString('utf8'));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((credentials) => credentials.endsWith(`:${TOKEN}`))).toBe(true);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  }, 150_000);
});
