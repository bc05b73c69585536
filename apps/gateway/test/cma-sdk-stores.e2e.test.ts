import { readdirSync, readFileSync } from 'node:fs';
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

const SECRETS = ['e2e-BEARER-7f3a91', 'e2e-ENVVAL-2b8c44', 'e2e-ACCESS-9d1e05', 'e2e-ROTATED-5c6f72'];

/** The official SDK against our gateway: vaults, credentials, memory stores, memories, deployments, files and skills. */
describe('CMA SDK: vaults, memory stores, deployments, files and skills', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  const wire: unknown[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    // Debug logging, so the check below covers every line the services would write about a request.
    platform = await launchPlatform({ databaseUrl: db.url, env: { AGENTRY_LOG_LEVEL: 'debug' } });
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

  it('creates vaults and credentials of every type without ever echoing a secret', async () => {
    const vault = await client.beta.vaults.create({
      display_name: 'team secrets',
      metadata: { team: 'core' },
    });
    wire.push(vault);
    expect(vault).toMatchObject({
      type: 'vault',
      display_name: 'team secrets',
      metadata: { team: 'core' },
      archived_at: null,
    });

    const bearer = await client.beta.vaults.credentials.create(vault.id, {
      display_name: 'github mcp',
      auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.github.test/sse', token: SECRETS[0]! },
    });
    const env = await client.beta.vaults.credentials.create(vault.id, {
      auth: {
        type: 'environment_variable',
        secret_name: 'NPM_TOKEN',
        secret_value: SECRETS[1]!,
        networking: { type: 'limited', allowed_hosts: ['registry.npmjs.org'] },
      },
    });
    const oauth = await client.beta.vaults.credentials.create(vault.id, {
      auth: { type: 'mcp_oauth', mcp_server_url: 'https://mcp.linear.test/mcp', access_token: SECRETS[2]! },
    });
    wire.push(bearer, env, oauth);
    expect(bearer.auth).toEqual({ type: 'static_bearer', mcp_server_url: 'https://mcp.github.test/sse' });
    expect(env.auth).toMatchObject({ type: 'environment_variable', secret_name: 'NPM_TOKEN' });

    const rotated = await client.beta.vaults.credentials.update(bearer.id, {
      vault_id: vault.id,
      auth: { type: 'static_bearer', token: SECRETS[3]! },
      display_name: 'github mcp (rotated)',
    });
    wire.push(rotated);
    expect(rotated.display_name).toBe('github mcp (rotated)');

    const listed = [];
    for await (const credential of client.beta.vaults.credentials.list(vault.id)) listed.push(credential);
    wire.push(listed, await client.beta.vaults.credentials.retrieve(oauth.id, { vault_id: vault.id }));
    expect(listed.map((c) => c.id).sort()).toEqual([bearer.id, env.id, oauth.id].sort());

    const archived = await client.beta.vaults.credentials.archive(env.id, { vault_id: vault.id });
    expect(archived.archived_at).toBeTruthy();
    const deleted = await client.beta.vaults.credentials.delete(oauth.id, { vault_id: vault.id });
    expect(deleted).toMatchObject({ id: oauth.id, type: 'vault_credential_deleted' });

    const json = JSON.stringify(wire);
    for (const secret of SECRETS) expect(json).not.toContain(secret);
  });

  it('answers a malformed credential with a 400 naming the field, and stores nothing', async () => {
    const vault = await client.beta.vaults.create({ display_name: 'strict' });
    const error = await client.beta.vaults.credentials
      .create(vault.id, { auth: { type: 'static_bearer', mcp_server_url: 'not a url', token: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/mcp_server_url/);
    const listed = await client.beta.vaults.credentials.list(vault.id);
    expect(listed.data).toHaveLength(0);
  });

  it('archives and deletes vaults', async () => {
    const vault = await client.beta.vaults.create({ display_name: 'short-lived' });
    await client.beta.vaults.archive(vault.id);
    expect((await client.beta.vaults.retrieve(vault.id)).archived_at).toBeTruthy();
    await client.beta.vaults.delete(vault.id);
    await expect(client.beta.vaults.retrieve(vault.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('versions memories, lists their history and redacts every version', async () => {
    const store = await client.beta.memoryStores.create({
      name: 'project notes',
      description: 'what we learned',
    });
    expect(store).toMatchObject({ type: 'memory_store', name: 'project notes' });

    const memory = await client.beta.memoryStores.memories.create(store.id, {
      path: '/notes/todo.md',
      content: 'ship it',
    });
    expect(memory).toMatchObject({ type: 'memory', path: '/notes/todo.md', content_size_bytes: 7 });
    const updated = await client.beta.memoryStores.memories.update(memory.id, {
      memory_store_id: store.id,
      content: 'ship it, then API key sk-leaked-123',
      view: 'full',
    });
    expect(updated.content).toBe('ship it, then API key sk-leaked-123');
    const fetched = await client.beta.memoryStores.memories.retrieve(memory.id, {
      memory_store_id: store.id,
    });
    expect(fetched.content).toBe('ship it, then API key sk-leaked-123');

    const items = [];
    for await (const item of client.beta.memoryStores.memories.list(store.id, { path_prefix: '/notes/' }))
      items.push(item);
    expect(items.map((i) => i.path)).toEqual(['/notes/todo.md']);

    const history = await client.beta.memoryStores.memoryVersions.list(store.id, { memory_id: memory.id });
    expect(history.data.map((v) => v.operation)).toEqual(['modified', 'created']);
    const older = await client.beta.memoryStores.memoryVersions.retrieve(history.data[1]!.id, {
      memory_store_id: store.id,
    });
    expect(older.content).toBe('ship it');

    const redacted = await client.beta.memoryStores.memoryVersions.redact(history.data[0]!.id, {
      memory_store_id: store.id,
    });
    expect(redacted.redacted_at).toBeTruthy();
    for (const version of (
      await client.beta.memoryStores.memoryVersions.list(store.id, { memory_id: memory.id, view: 'full' })
    ).data) {
      expect(version.content).toBeNull();
      expect(version.redacted_at).toEqual(expect.any(String));
    }
    const after = await client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id });
    expect(after.content).not.toContain('sk-leaked-123');

    await client.beta.memoryStores.memories.delete(memory.id, { memory_store_id: store.id });
    await expect(
      client.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    const archived = await client.beta.memoryStores.archive(store.id);
    expect(archived.archived_at).toBeTruthy();
  });

  it('defines, pauses and archives a cron deployment, and refuses a bad time zone', async () => {
    const agent = await client.beta.agents.create({ name: 'reporter', model: 'scripted' });
    const environment = await client.beta.environments.create({ name: 'digest-env' });
    const deployment = await client.beta.deployments.create({
      name: 'weekday digest',
      agent: agent.id,
      environment_id: environment.id,
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'Write the digest' }] }],
      schedule: { type: 'cron', expression: '30 7 * * 1-5', timezone: 'America/New_York' },
    });
    expect(deployment).toMatchObject({
      type: 'deployment',
      status: 'active',
      agent: { id: agent.id, version: 1 },
    });
    expect((await client.beta.deployments.pause(deployment.id)).status).toBe('paused');
    expect((await client.beta.deployments.unpause(deployment.id)).status).toBe('active');
    const listed = await client.beta.deployments.list();
    expect(listed.data.map((d) => d.id)).toContain(deployment.id);
    expect((await client.beta.deployments.archive(deployment.id)).archived_at).toBeTruthy();
    expect((await client.beta.deploymentRuns.list({ deployment_id: deployment.id })).data).toEqual([]);

    const error = await client.beta.deployments
      .create({
        name: 'bad zone',
        agent: agent.id,
        environment_id: environment.id,
        initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'x' }] }],
        schedule: { type: 'cron', expression: '0 0 * * *', timezone: 'Nowhere/Special' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/timezone/);
  });

  it('uploads a file as multipart, reads it back byte for byte, and deletes it', async () => {
    const bytes = Buffer.from('id,total\n1,42\n\u0000\u00ff', 'latin1');
    const uploaded = await client.beta.files.upload({
      file: new File([bytes], 'totals.csv', { type: 'text/csv' }),
    });
    expect(uploaded).toMatchObject({
      type: 'file',
      filename: 'totals.csv',
      mime_type: 'text/csv',
      size_bytes: bytes.length,
    });
    expect(await client.beta.files.retrieveMetadata(uploaded.id)).toMatchObject({ id: uploaded.id });
    const download = await client.beta.files.download(uploaded.id);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const listed = await client.beta.files.list();
    expect(listed.data.map((f) => f.id)).toContain(uploaded.id);
    await client.beta.files.delete(uploaded.id);
    await expect(client.beta.files.retrieveMetadata(uploaded.id)).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it('uploads a skill folder, adds a version, and rejects a SKILL.md without valid front matter', async () => {
    const folder = (description: string) => [
      new File(
        [`---\nname: csv-report\ndescription: ${description}\n---\n# Steps\n`],
        'csv-report/SKILL.md',
        { type: 'text/markdown' },
      ),
      new File(['print("hi")\n'], 'csv-report/scripts/run.py', { type: 'text/x-python' }),
    ];
    const skill = await client.beta.skills.create({ files: folder('Formats CSV reports') });
    expect(skill).toMatchObject({ type: 'skill', display_name: 'csv-report' });
    const v2 = await client.beta.skills.versions.create(skill.id, {
      files: folder('Formats CSV reports with totals'),
    });
    expect(v2).toMatchObject({
      skill_id: skill.id,
      name: 'csv-report',
      description: 'Formats CSV reports with totals',
    });
    expect((await client.beta.skills.retrieve(skill.id)).latest_version_id).toBe(v2.id);
    const versions = await client.beta.skills.versions.list(skill.id);
    expect(versions.data).toHaveLength(2);

    const error = await client.beta.skills
      .create({ files: [new File(['no front matter'], 'broken/SKILL.md', { type: 'text/markdown' })] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/front matter/);
    await client.beta.skills.delete(skill.id);
    await expect(client.beta.skills.retrieve(skill.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('writes no secret into any service log', () => {
    const logDir = join(repoRoot(), 'test-results', 'runs', platform.runId);
    const logs = readdirSync(logDir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => readFileSync(join(logDir, f), 'utf8'))
      .join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of SECRETS) expect(logs).not.toContain(secret);
  });
});
