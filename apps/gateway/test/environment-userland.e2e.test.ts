import { statSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn } from './outage-fixture.js';

const CACHE = '/var/cache/agentry/userland';
const PACKAGES = { apt: ['cowsay'], npm: ['is-number@7.0.0'] };

/** An environment's package build, as the environment reports it. */
interface PackageBuild {
  status: string;
  started_at: string | null;
  error: { package?: { manager: string; name: string }; message: string } | null;
}

interface BuildLog {
  type: string;
  status: string;
  log: string;
}

/**
 * Environments that can do real work, through the official SDK on the five services: a `cloud` session runs
 * on the platform's Debian userland with its standard toolchain, an environment's packages form a layer
 * built once and shared, a package that does not exist fails clearly, and `allow_package_managers` opens
 * the registries to a `limited` session.
 */
describe('environments: the userland, its packages and the registries', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;

  beforeAll(async () => {
    db = await createTestDatabase();
    // The test package set's layer is built by this run, so that its one build is this run's.
    for (const layer of await readdir(join(CACHE, 'layers')).catch(() => [] as string[])) {
      const packages = await readFile(join(CACHE, 'layers', layer, 'packages.json'), 'utf8').catch(() => '');
      if (packages && JSON.stringify(JSON.parse(packages)) === JSON.stringify(PACKAGES))
        await rm(join(CACHE, 'layers', layer), { recursive: true, force: true });
    }
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const authToken = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken, apiKey: null, maxRetries: 0 });
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  /** Runs scripted tool calls in a new session of `environmentId`; each tool result, and the session's errors. */
  async function runTools(environmentId: string, commands: string[]) {
    const script = {
      turns: [
        {
          reply: [...commands.map((command) => ({ toolCall: { name: 'bash', input: { command } } })), 'done'],
        },
      ],
    };
    const agent = await client.beta.agents.create({
      name: 'userland prober',
      model: { id: 'scripted', script } as unknown as string,
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environmentId });
    await completeTurn(api, session.id, 'go', 300_000);
    const events = [];
    for await (const event of client.beta.sessions.events.list(session.id, { limit: 1000 }))
      events.push(event);
    const results = events.flatMap((e) =>
      e.type === 'agent.tool_result'
        ? [
            {
              isError: e.is_error === true,
              text: (e.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(''),
            },
          ]
        : [],
    );
    const errors = events.flatMap((e) => (e.type === 'session.error' ? [e.error.message] : []));
    expect(results).toHaveLength(commands.length);
    return { results, errors };
  }

  const buildOf = async (environmentId: string) =>
    (await api.get<{ agentry_build: PackageBuild }>(`/v1/environments/${environmentId}`)).body.agentry_build;
  const buildLog = async (environmentId: string) =>
    (await api.get<BuildLog>(`/v1/environments/${environmentId}/build/log`)).body;

  const layerBuilds = async () =>
    (await readFile(join(repoRoot(), 'test-results', 'runs', platform.runId, 'worker.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"package layer built"')).length;

  it("runs a default cloud session on the platform's userland with the standard toolchain", async () => {
    const environment = await client.beta.environments.create({
      name: 'standard',
      config: { type: 'cloud' },
    });
    const { results } = await runTools(environment.id, [
      "git --version && python3 -c 'print(1)' && node -e 'console.log(1)' && curl --version && gcc --version",
      'cat /etc/agentry-userland; stat -c %i /usr/bin/env /usr/bin/git',
    ]);
    expect(results[0]!.isError, results[0]!.text).toBe(false);
    expect(results[0]!.text).toMatch(/git version [\d.]+\n1\n1\ncurl [\d.]+[\s\S]*gcc \(Debian/);
    const [stamp, envInode, gitInode] = results[1]!.text.split('\n');
    // The sandbox's root is the cached userland: the same files, none of them the worker host's.
    const root = join(CACHE, 'base', stamp!, 'root');
    expect(Number(envInode)).toBe(statSync(join(root, 'usr/bin/env')).ino);
    expect(Number(gitInode)).toBe(statSync(join(root, 'usr/bin/git')).ino);
    expect(Number(envInode)).not.toBe(statSync('/usr/bin/env').ino);
    const build = await buildOf(environment.id);
    expect(build).toEqual({
      status: 'ready',
      packages_digest: null,
      started_at: null,
      finished_at: null,
      error: null,
    });
  });

  it("builds an environment's packages once, for every session of it, and no other environment sees them", async () => {
    const environment = await client.beta.environments.create({
      name: 'with packages',
      config: { type: 'cloud', packages: PACKAGES },
    });
    expect(await buildOf(environment.id)).toMatchObject({
      status: 'pending',
    });
    // Debian's npm brings a node-is-number of its own (/usr/share/nodejs): the layer's is the one npm installed.
    const use = [
      '/usr/games/cowsay hi',
      `node -e "console.log(require('is-number')(7), require.resolve('is-number'))"`,
    ];
    const first = await runTools(environment.id, use);
    expect(first.results[0]?.isError).toBe(false);
    expect(first.results[0]?.text).toContain('< hi >');
    expect(first.results[1]).toEqual({
      isError: false,
      text: 'true /usr/local/lib/node_modules/is-number/index.js',
    });
    const built = await buildOf(environment.id);
    expect(built).toMatchObject({ status: 'ready', error: null });
    expect(built.started_at).toEqual(expect.any(String));
    const log = await buildLog(environment.id);
    expect(log).toMatchObject({ type: 'environment_build_log', status: 'ready' });
    expect(log.log).toContain('Setting up cowsay');

    const second = await runTools(environment.id, use);
    expect(second.results.map((r) => r.isError)).toEqual([false, false]);
    expect(await buildOf(environment.id)).toEqual(built);
    expect(await layerBuilds()).toBe(1);

    const plain = await client.beta.environments.create({ name: 'without', config: { type: 'cloud' } });
    const without = await runTools(plain.id, use);
    expect(without.results[0]?.isError).toBe(true);
    expect(without.results[0]?.text).toContain('No such file');
    expect(without.results[1]!.text).not.toContain('/usr/local/lib/node_modules/is-number');
  });

  it('ends a package that does not exist in a session.error naming it and the environment failed', async () => {
    const missing = 'agentry-no-such-package';
    const environment = await client.beta.environments.create({
      name: 'broken',
      config: { type: 'cloud', packages: { apt: [missing] } },
    });
    const { results, errors } = await runTools(environment.id, ['echo never']);
    expect(results[0]!.isError).toBe(true);
    expect(results[0]!.text).toContain(`apt package ${missing} could not be installed`);
    expect(errors.some((message) => message.includes(`apt package ${missing}`))).toBe(true);
    const build = await buildOf(environment.id);
    expect(build).toMatchObject({ status: 'failed', error: { package: { manager: 'apt', name: missing } } });
    expect(build.error?.message).toContain(missing);
    expect((await buildLog(environment.id)).log).toContain(`Unable to locate package ${missing}`);
  });

  it('lets a limited session reach the package registries only with allow_package_managers', async () => {
    const view = 'npm view is-number version';
    const open = await client.beta.environments.create({
      name: 'registries',
      config: { type: 'cloud', networking: { type: 'limited', allow_package_managers: true } },
    });
    const closed = await client.beta.environments.create({
      name: 'no registries',
      config: { type: 'cloud', networking: { type: 'limited', allow_package_managers: false } },
    });
    expect((await runTools(open.id, [view])).results[0]).toEqual({ isError: false, text: '7.0.0' });
    const refused = (await runTools(closed.id, [view])).results[0]!;
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/403|ECONNREFUSED|E403|not in this environment's allowed_hosts/);
  });
});
