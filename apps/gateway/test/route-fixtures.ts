import { pollUntil, type ApiClient } from '@agentry/testing';
import { csvFile, skillFolder } from './route-bodies.js';
import type { Fixtures } from './route-params.js';
import { send } from './route-probes.js';

/** One namespace's resources, plus the environment key's secret a worker would present. */
export interface NamespaceFixtures {
  ids: Fixtures;
  environmentKeySecret: string;
}

/** What most fixture calls answer: a resource, read by its id. */
interface Resource {
  id: string;
}

interface Page<T = Resource> {
  data: T[];
}

/** A fixture call, answering the reply's body as `T` (a created resource unless told otherwise). */
type Call = <T = Resource>(what: string, method: string, path: string, body?: unknown) => Promise<T>;

const text = (value: string) => [{ type: 'text', text: value }];

interface Agent extends Resource {
  name: string;
}

interface EnvironmentKey extends Resource {
  key: string;
}

interface Session extends Resource {
  resources: Resource[];
}

interface Thread extends Resource {
  parent_thread_id: string | null;
}

/** What a refused write to a session could change. */
interface SessionSettings {
  title: unknown;
  metadata: unknown;
  archived_at: unknown;
}

interface User {
  username: string;
  role: string;
  disabled: boolean;
}

interface ApiKey extends Resource {
  permissions: unknown;
  revokedAt: string | null;
}

/** The first item's id; a fixture missing one fails here rather than in every probe that needs it. */
function firstId(items: Resource[], what: string): string {
  const id = items[0]?.id;
  if (id === undefined) throw new Error(`fixture ${what}: none was returned`);
  return id;
}

/** A full set of resources in the namespace `headers` select, made through the public API as a user would. */
export async function createNamespaceFixtures(
  api: ApiClient,
  headers: Record<string, string>,
  documented: ReadonlySet<string>,
): Promise<NamespaceFixtures> {
  const call: Call = async <T>(what: string, method: string, path: string, body?: unknown) => {
    const reply = await send(api.baseUrl, method, path, body, { ...api.authHeaders, ...headers });
    if (reply.status !== 200)
      throw new Error(`fixture ${what}: ${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body as T;
  };
  // First, so the session made below is an event it gets a delivery of.
  const webhook = await call('webhook', 'POST', '/v1/webhooks', {
    url: 'https://192.0.2.10/fixture',
    enabled_events: ['session.created'],
  });
  const [agent, environment, cloudEnvironment, vault, store, file, skill] = await Promise.all([
    call<Agent>('agent', 'POST', '/v1/agents', { name: 'fixture agent', model: 'scripted' }),
    // Self-hosted, so the environment has a work queue and keys a worker would use.
    call('environment', 'POST', '/v1/environments', { name: 'fixture env', config: { type: 'self_hosted' } }),
    // Cloud, for what only an environment the platform builds an image for has (its build log).
    call('cloud environment', 'POST', '/v1/environments', {
      name: 'fixture cloud env',
      config: { type: 'cloud' },
    }),
    call('vault', 'POST', '/v1/vaults', { display_name: 'fixture vault' }),
    call('memory store', 'POST', '/v1/memory_stores', { name: 'fixture store' }),
    call('file', 'POST', '/v1/files', csvFile()),
    call('skill', 'POST', '/v1/skills', skillFolder('Fixture skill')),
  ]);
  const [environmentKey, session, credential, memory, skillVersion, deployment] = await Promise.all([
    call<EnvironmentKey>('environment key', 'POST', `/v1/environments/${environment.id}/keys`, {}),
    call<Session>('session', 'POST', '/v1/sessions', {
      agent: agent.id,
      environment_id: environment.id,
      resources: [
        {
          type: 'github_repository',
          url: 'https://git.fixture.test/acme/widgets.git',
          authorization_token: 'fixture-token',
        },
        { type: 'file', file_id: file.id },
      ],
    }),
    call('credential', 'POST', `/v1/vaults/${vault.id}/credentials`, {
      auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.fixture.test/sse', token: 'fixture-token' },
    }),
    call('memory', 'POST', `/v1/memory_stores/${store.id}/memories`, {
      path: '/fixture/notes.md',
      content: 'fixture',
    }),
    call(
      'skill version',
      'POST',
      `/v1/skills/${skill.id}/versions`,
      skillFolder('Fixture skill, second version'),
    ),
    call('deployment', 'POST', '/v1/deployments', {
      name: 'fixture deployment',
      agent: agent.id,
      environment_id: environment.id,
      initial_events: [{ type: 'user.message', content: text('go') }],
    }),
  ]);
  const [sent, versions, run] = await Promise.all([
    call<Page>('event', 'POST', `/v1/sessions/${session.id}/events`, {
      events: [{ type: 'user.message', content: text('hello') }],
    }),
    call<Page>(
      'memory version',
      'GET',
      `/v1/memory_stores/${store.id}/memory_versions?memory_id=${memory.id}`,
    ),
    call('deployment run', 'POST', `/v1/deployments/${deployment.id}/run`),
  ]);
  const ids: Fixtures = {
    agent: agent.id,
    agentVersion: '1',
    environment: environment.id,
    cloudEnvironment: cloudEnvironment.id,
    environmentKey: environmentKey.id,
    session: session.id,
    sessionResource: firstId(session.resources, 'session resource'),
    event: firstId(sent.data, 'event'),
    vault: vault.id,
    credential: credential.id,
    memoryStore: store.id,
    memory: memory.id,
    memoryVersion: firstId(versions.data, 'memory version'),
    memoryPath: 'fixture/notes.md',
    skill: skill.id,
    skillVersion: skillVersion.id,
    file: file.id,
    deployment: deployment.id,
    deploymentRun: run.id,
    granteeType: 'user',
    webhookToken: 'dwh_matrix_unknown',
    webhook: webhook.id,
    webhookDelivery: await firstDelivery(call, webhook.id),
  };
  if (documented.has('GET /v1/dreams/{id}')) ids.dream = await endedDream(call, store.id);
  if (documented.has('GET /api/multiagent/runs/{id}')) {
    const body = { agentIds: [agent.id], message: 'go', environmentId: environment.id };
    const started = await send(api.baseUrl, 'POST', '/api/multiagent/run', body, {
      ...api.authHeaders,
      ...headers,
      prefer: 'respond-async',
    });
    if (started.status !== 202)
      throw new Error(`fixture multi-agent run → ${started.status} ${JSON.stringify(started.body)}`);
    ids.multiagentRun = (started.body as { id: string }).id;
  }
  if (documented.has('GET /v1/replays/{id}')) {
    const accepted = async (what: string, path: string, body: unknown) => {
      const reply = await send(api.baseUrl, 'POST', path, body, { ...api.authHeaders, ...headers });
      if (reply.status !== 202)
        throw new Error(`fixture ${what}: POST ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
      return (reply.body as { id: string }).id;
    };
    const version = { id: agent.id, version: 1 };
    ids.replay = await accepted('replay', `/v1/sessions/${session.id}/replay`, { agent: version });
    ids.replayBatch = await accepted('replay batch', `/v1/agents/${agent.id}/replays`, {
      version: 1,
      last: 1,
    });
  }
  if (documented.has('GET /v1/sessions/{id}/threads/{threadId}')) {
    const delegated = await delegatedThread(call, agent, environment.id);
    ids.threadSession = delegated.sessionId;
    ids.thread = delegated.threadId;
  }
  if (documented.has('GET /v1/environments/{id}/work'))
    ids.workItem = await firstWorkItem(call, environment.id);
  if (documented.has('GET /api/agents/{id}/workspace'))
    ids.workspaceItem = await agentWorkspaceFiles(call, agent.id);
  return { ids, environmentKeySecret: environmentKey.key };
}

/** A dream over the fixture store, once it has ended, so nothing it writes lands while probes run. */
async function endedDream(call: Call, storeId: string): Promise<string> {
  const dream = await call('dream', 'POST', '/v1/dreams', {
    inputs: [{ type: 'memory_store', memory_store_id: storeId }],
    model: 'scripted',
  });
  return pollUntil('the fixture dream to end', async () => {
    const { status } = await call<{ status: string }>('dream', 'GET', `/v1/dreams/${dream.id}`);
    return status === 'pending' || status === 'running' ? undefined : dream.id;
  });
}

/** The delivery of the fixture session's `session.created` to the fixture endpoint, once fanned out. */
async function firstDelivery(call: Call, webhookId: string): Promise<string> {
  return pollUntil('a webhook delivery', async () => {
    const page = await call<Page>('webhook deliveries', 'GET', `/v1/webhooks/${webhookId}/deliveries`);
    return page.data[0]?.id;
  });
}

/** The thread a coordinator's session runs the fixture agent in, once the coordinator has delegated to it. */
async function delegatedThread(
  call: Call,
  agent: Agent,
  environmentId: string,
): Promise<{ sessionId: string; threadId: string }> {
  const script = {
    turns: [
      {
        reply: [
          { toolCall: { name: 'send_message_to_agent', input: { agent: agent.name, message: 'hi' } } },
          'ok',
        ],
      },
    ],
  };
  const coordinator = await call('coordinator agent', 'POST', '/v1/agents', {
    name: 'fixture coordinator',
    model: { id: 'scripted', script },
    multiagent: { type: 'coordinator', agents: [agent.id] },
  });
  const session = await call('coordinator session', 'POST', '/v1/sessions', {
    agent: coordinator.id,
    environment_id: environmentId,
  });
  await call('delegation', 'POST', `/v1/sessions/${session.id}/events`, {
    events: [{ type: 'user.message', content: text('go') }],
  });
  const child = await pollUntil(
    'fixture thread: the coordinator to delegate',
    async () => {
      const page = await call<Page<Thread>>('threads', 'GET', `/v1/sessions/${session.id}/threads`);
      return page.data.find((t) => t.parent_thread_id !== null);
    },
    30_000,
  );
  return { sessionId: session.id, threadId: child.id };
}

/** AGENTS.md plus a skill and a sub-agent in the agent's workspace, both named by the returned name. */
async function agentWorkspaceFiles(call: Call, agentId: string): Promise<string> {
  const name = 'fixture-item';
  await call('agent workspace file', 'PUT', `/api/agents/${agentId}/workspace/file`, {
    path: 'AGENTS.md',
    content: '# Fixture agent',
  });
  await call('workspace skill', 'PUT', `/api/agents/${agentId}/skills/workspace/${name}`, {
    markdown: `---\nname: ${name}\ndescription: Fixture skill\n---\n`,
  });
  await call('workspace sub-agent', 'PUT', `/api/agents/${agentId}/workspace/subagents/${name}`, {
    description: 'Fixture sub-agent',
    inlineBody: 'fixture',
  });
  return name;
}

/** The work item a session queued on the self-hosted environment (queued asynchronously). */
function firstWorkItem(call: Call, environmentId: string): Promise<string | undefined> {
  return pollUntil(
    'the work item',
    async () => {
      const page = await call<Partial<Page>>('work item', 'GET', `/v1/environments/${environmentId}/work`);
      return page.data?.[0]?.id;
    },
    5_000,
  ).catch(() => undefined);
}

/** What a refused request must leave as it was: resources of both namespaces, users, namespaces and keys. */
export async function refusalSnapshot(
  admin: ApiClient,
  member: ApiClient,
  own: Fixtures,
  other: Fixtures,
  inOther: Record<string, string>,
) {
  const read = async (path: string, headers: Record<string, string> = {}) => {
    const reply = await admin.get<unknown>(path, headers);
    return [path, reply.status, reply.body];
  };
  const resources = (ids: Fixtures) => [
    `/v1/agents/${ids.agent}`,
    `/v1/environments/${ids.environment}`,
    `/v1/environments/${ids.environment}/keys`,
    `/v1/vaults/${ids.vault}/credentials/${ids.credential}`,
    `/v1/memory_stores/${ids.memoryStore}/memories/${ids.memory}`,
    `/v1/deployments/${ids.deployment}`,
    `/v1/skills/${ids.skill}`,
    `/v1/files/${ids.file}`,
    '/v1/agents?limit=100',
    '/v1/vaults?limit=100',
  ];
  // A session's status and usage move with its turns; what a refused write could change is this.
  const session = async (ids: Fixtures, headers: Record<string, string>) => {
    const { body } = await admin.get<SessionSettings>(`/v1/sessions/${ids.session}`, headers);
    return [body.title, body.metadata, body.archived_at];
  };
  const users = async () =>
    (await admin.get<User[]>('/api/admin/users?limit=100')).body.map((u) => [u.username, u.role, u.disabled]);
  // Keys record when they were last used; which exist and whether revoked is what matters.
  const keys = async () =>
    (await member.get<ApiKey[]>('/api/keys')).body.map((k) => [k.id, k.permissions, k.revokedAt]);
  return Promise.all([
    ...resources(own).map((path) => read(path)),
    ...resources(other).map((path) => read(path, inOther)),
    session(own, {}),
    session(other, inOther),
    users(),
    read('/api/namespaces'),
    keys(),
  ]);
}
