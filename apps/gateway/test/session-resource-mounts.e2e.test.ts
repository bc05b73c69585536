import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
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
import { completeTurn } from './outage-fixture.js';

interface ContentBlock {
  type?: string;
  text?: string;
}

/** A logged event, as far as the test reads it. */
interface LoggedEvent {
  type: string;
  is_error?: boolean;
  content?: ContentBlock[];
  error?: { message: string };
}

/** A memory store listing's item: a memory, or a path prefix (which has no id). */
interface ListedMemory {
  type: string;
  path: string;
  id?: string;
}

const memoryId = (item: ListedMemory | undefined): string => {
  if (item?.type !== 'memory' || item.id === undefined)
    throw new Error(`not a memory: ${JSON.stringify(item)}`);
  return item.id;
};

const TOKEN = 'ghp_e2eUNREACHABLEtoken5Vb83';
const textOf = (event: LoggedEvent): string =>
  (event.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');

/**
 * A session's `resources[]` in use on five processes: uploaded files read-only at their mount path,
 * memory stores under /mnt/memory (written back as memory versions of the session when read-write,
 * refused when read-only, announced in the system prompt), and a repository that cannot be cloned
 * reported as a `session.error` while the session goes on.
 */
describe('session resources mounted into a running session', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;
  /** A loopback port nothing listens on: the repository there cannot be cloned. */
  let deadPort: number;
  /** Answers `open` once the test lets a waiting `bash` call go on (so a change lands while the call runs). */
  let gate: Server;
  let gateOpen = false;
  /** Requests the gate has answered: the first means a bash command of the session is running. */
  let gateAsked = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    deadPort = await freePort();
    gate = createHttpServer((_req, res) => {
      gateAsked += 1;
      res.end(gateOpen ? 'open' : 'shut');
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    const gatePort = (gate.address() as { port: number }).port;
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 300_000,
      env: { AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${deadPort},127.0.0.1:${gatePort}` },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: api.authHeaders.authorization!.slice('Bearer '.length),
      apiKey: null,
      maxRetries: 0,
    });
  }, 360_000);

  afterAll(async () => {
    await platform?.stop();
    await new Promise((resolve) => gate?.close(resolve));
    await db?.drop();
  });

  async function events(sessionId: string): Promise<LoggedEvent[]> {
    const all: LoggedEvent[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as LoggedEvent);
    return all;
  }

  async function toolResults(sessionId: string): Promise<Array<{ isError: boolean; text: string }>> {
    return (await events(sessionId))
      .filter((e) => e.type === 'agent.tool_result')
      .map((e) => ({ isError: e.is_error === true, text: textOf(e) }));
  }

  async function scriptedAgent(name: string, reply: unknown[]): Promise<string> {
    const agent = await client.beta.agents.create({
      name,
      model: { id: 'scripted', script: { turns: [{ reply }] } } as never,
      tools: [
        { type: 'agent_toolset_20260401', default_config: { permission_policy: { type: 'always_allow' } } },
      ],
    });
    return agent.id;
  }

  async function localEnvironment(): Promise<string> {
    return (
      await client.beta.environments.create({
        name: `mounts-${Math.random().toString(36).slice(2, 8)}`,
        config: { type: 'local' } as never,
      })
    ).id;
  }

  it('shows file resources read-only at their mount path, to read and to bash', async () => {
    const notes = await client.beta.files.upload({
      file: new File(['meeting notes: ship on friday\n'], 'notes.txt', { type: 'text/plain' }),
    });
    const figures = await client.beta.files.upload({
      file: new File(['region,revenue\nnorth,12\n'], 'figures.csv', { type: 'text/csv' }),
    });
    const defaultPath = `/mnt/session/uploads/${notes.id}`;
    const agent = await scriptedAgent('reads files', [
      { toolCall: { name: 'read', input: { file_path: defaultPath } } },
      {
        toolCall: {
          name: 'bash',
          input: { command: 'cat /mnt/data/figures.csv; echo changed > /mnt/data/figures.csv' },
        },
      },
      { toolCall: { name: 'write', input: { file_path: defaultPath, content: 'overwritten' } } },
      'done',
    ]);
    const session = await client.beta.sessions.create({
      agent,
      environment_id: await localEnvironment(),
      resources: [
        { type: 'file', file_id: notes.id },
        { type: 'file', file_id: figures.id, mount_path: '/mnt/data/figures.csv' },
      ],
    });
    expect(session.resources.map((r) => r.mount_path)).toEqual([defaultPath, '/mnt/data/figures.csv']);
    await completeTurn(api, session.id, 'read the files', 120_000);

    const [read, bash, write] = await toolResults(session.id);
    expect(read).toEqual({ isError: false, text: 'meeting notes: ship on friday\n' });
    expect(bash!.text).toContain('region,revenue\nnorth,12');
    expect(bash!.text).toContain('Read-only file system');
    expect(write!.isError).toBe(true);
    expect(write!.text).toContain('Read-only');
  }, 180_000);

  it('mounts memory stores: a read-write store takes the session writes as memory versions, a read-only one refuses them', async () => {
    const team = await client.beta.memoryStores.create({
      name: 'Team Preferences',
      description: 'how the team works',
    });
    const style = await client.beta.memoryStores.memories.create(team.id, {
      path: '/style.md',
      content: 'Use spaces.\n',
    });
    const facts = await client.beta.memoryStores.create({ name: 'Company Facts' });
    await client.beta.memoryStores.memories.create(facts.id, {
      path: '/facts.md',
      content: 'Founded in 2019.\n',
    });
    const teamDir = '/mnt/memory/team-preferences';
    const factsDir = '/mnt/memory/company-facts';
    const agent = await scriptedAgent('remembers', [
      { toolCall: { name: 'read', input: { file_path: `${teamDir}/style.md` } } },
      { toolCall: { name: 'write', input: { file_path: `${teamDir}/style.md`, content: 'Use tabs.\n' } } },
      {
        toolCall: {
          name: 'bash',
          input: {
            command: `mkdir -p ${teamDir}/people && echo 'Answer in French.' > ${teamDir}/people/ana.md && cat ${factsDir}/facts.md`,
          },
        },
      },
      {
        toolCall: {
          name: 'write',
          input: { file_path: `${factsDir}/facts.md`, content: 'Founded in 1999.\n' },
        },
      },
      { toolCall: { name: 'bash', input: { command: `echo 'Founded in 1999.' > ${factsDir}/facts.md` } } },
      'SYSTEM PROMPT SEEN: {{system}}',
    ]);
    const session = await client.beta.sessions.create({
      agent,
      environment_id: await localEnvironment(),
      resources: [
        {
          type: 'memory_store',
          memory_store_id: team.id,
          access: 'read_write',
          instructions: 'Record every preference the user states.',
        },
        { type: 'memory_store', memory_store_id: facts.id, access: 'read_only' },
      ],
    });
    await completeTurn(api, session.id, 'remember my preferences', 120_000);

    const [read, edit, shell, refusedWrite, refusedShell] = await toolResults(session.id);
    expect(read).toEqual({ isError: false, text: 'Use spaces.\n' });
    expect(edit!.isError, edit!.text).toBe(false);
    const mentionsFounding: unknown = expect.stringContaining('Founded in 2019.');
    expect(shell).toMatchObject({ isError: false, text: mentionsFounding });
    expect(refusedWrite!.isError).toBe(true);
    expect(refusedWrite!.text).toContain(`the memory store at ${factsDir} is mounted read-only`);
    expect(refusedShell!.text).toContain('Read-only file system');

    // The mount instructions, where each store is and whether it is writable, reached the model.
    const answer = textOf((await events(session.id)).filter((e) => e.type === 'agent.message').at(-1)!);
    expect(answer).toContain('Record every preference the user states.');
    expect(answer).toContain(`The memory store "Team Preferences" is mounted at ${teamDir} (read-write`);
    expect(answer).toContain(`The memory store "Company Facts" is mounted at ${factsDir} (read-only`);

    // The SDK sees the session's writes once the turn is idle, as versions attributed to the session.
    const memories: ListedMemory[] = [];
    for await (const memory of client.beta.memoryStores.memories.list(team.id)) memories.push(memory);
    expect(memories.map((m) => m.path).sort()).toEqual(['/people/ana.md', '/style.md']);
    const contentOf = async (path: string) =>
      (
        await client.beta.memoryStores.memories.retrieve(memoryId(memories.find((m) => m.path === path)), {
          memory_store_id: team.id,
        })
      ).content;
    expect(await contentOf('/style.md')).toBe('Use tabs.\n');
    expect(await contentOf('/people/ana.md')).toBe('Answer in French.\n');
    const versions = [];
    for await (const version of client.beta.memoryStores.memoryVersions.list(team.id)) versions.push(version);
    const bySession = versions.filter(
      (v) => v.created_by?.type === 'session_actor' && v.created_by.session_id === session.id,
    );
    expect(bySession.map((v) => `${v.operation} ${v.path}`).sort()).toEqual([
      'created /people/ana.md',
      'modified /style.md',
    ]);
    expect(bySession.find((v) => v.path === '/style.md')!.memory_id).toBe(style.id);

    // The read-only store is as it was.
    const factVersions = [];
    for await (const version of client.beta.memoryStores.memoryVersions.list(facts.id))
      factVersions.push(version);
    expect(factVersions).toHaveLength(1);
    const factMemories: ListedMemory[] = [];
    for await (const memory of client.beta.memoryStores.memories.list(facts.id)) factMemories.push(memory);
    expect(
      await client.beta.memoryStores.memories.retrieve(memoryId(factMemories[0]), {
        memory_store_id: facts.id,
      }),
    ).toMatchObject({ content: 'Founded in 2019.\n' });
  }, 180_000);

  it('does not overwrite a memory changed through the API while the session was editing its copy', async () => {
    const store = await client.beta.memoryStores.create({ name: 'Shared Plan' });
    const plan = await client.beta.memoryStores.memories.create(store.id, {
      path: '/plan.md',
      content: 'v1\n',
    });
    const gatePort = (gate.address() as { port: number }).port;
    const waitForGate = `until curl -sS -m 5 --noproxy '' http://127.0.0.1:${gatePort}/ | grep -q open; do sleep 0.3; done`;
    const agent = await scriptedAgent('edits late', [
      {
        toolCall: {
          name: 'bash',
          input: { command: `${waitForGate}; echo mine > /mnt/memory/shared-plan/plan.md` },
        },
      },
      'done',
    ]);
    const environment = await client.beta.environments.create({
      name: 'mounts-cloud',
      config: { type: 'cloud' },
    });
    const session = await client.beta.sessions.create({
      agent,
      environment_id: environment.id,
      resources: [{ type: 'memory_store', memory_store_id: store.id, access: 'read_write' }],
    });
    gateOpen = false;
    const askedBefore = gateAsked;
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'edit the plan' }] }],
    });
    // The command is running (it asks the gate), so its mounts were brought up to date before the change.
    await pollUntil('the bash command to run', () => gateAsked > askedBefore, 120_000);
    await client.beta.memoryStores.memories.update(plan.id, {
      memory_store_id: store.id,
      content: 'theirs\n',
    });
    gateOpen = true;
    await pollUntil(
      'the session to go idle',
      async () => (await client.beta.sessions.retrieve(session.id)).status === 'idle',
      120_000,
    );

    const [edit] = await toolResults(session.id);
    expect(edit!.isError).toBe(true);
    expect(edit!.text).toContain(
      'The changes under /mnt/memory/shared-plan were not saved to the memory store',
    );
    expect(edit!.text).toContain('changed by someone else');
    expect(
      await client.beta.memoryStores.memories.retrieve(plan.id, { memory_store_id: store.id }),
    ).toMatchObject({ content: 'theirs\n' });
  }, 300_000);

  it('reports a repository that cannot be cloned as a session.error without its token, and the session still goes idle', async () => {
    const url = `http://127.0.0.1:${deadPort}/widgets.git`;
    const agent = await scriptedAgent('no repo', [
      { toolCall: { name: 'bash', input: { command: 'ls /workspace' } } },
      'done',
    ]);
    const session = await client.beta.sessions.create({
      agent,
      environment_id: await localEnvironment(),
      resources: [{ type: 'github_repository', url, authorization_token: TOKEN }],
    });
    await completeTurn(api, session.id, 'look at the repo', 120_000);

    const log = await events(session.id);
    const errors = log.filter((e) => e.type === 'session.error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.error).toMatchObject({
      type: 'repository_clone_error',
      repository_url: url,
      retry_status: { type: 'terminal' },
    });
    expect(errors[0]!.error?.message).toContain(
      `The repository ${url} could not be cloned into /workspace/widgets`,
    );
    expect(log.some((e) => e.type === 'session.status_idle')).toBe(true);
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe('idle');
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  }, 180_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
