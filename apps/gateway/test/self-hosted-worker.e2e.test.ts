import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { BetaHeartbeatPreconditionFailedError } from '@anthropic-ai/sdk/resources/beta/environments/work';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  recordingFetch,
  registerSecret,
  type ApiResponse,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const NOTE = { file_path: 'notes/hello.txt', content: 'hello from the customer machine' };
const SKILL_MD = '---\nname: greeter\ndescription: Greets people politely\n---\nSay hello first.\n';

/** write, then read it back, then read the skill the worker laid out, then answer. */
const WRITE_READ_ANSWER = {
  turns: [
    {
      reply: [
        { toolCall: { name: 'write', input: NOTE } },
        { toolCall: { name: 'read', input: { file_path: NOTE.file_path } } },
        { toolCall: { name: 'read', input: { file_path: 'skills/greeter/SKILL.md' } } },
        'The note is written and reads back.',
      ],
    },
  ],
};

interface Created {
  id: string;
}

interface ContentBlock {
  type?: string;
  text?: string;
}

/** A logged event, as far as the test reads it. */
interface LoggedEvent {
  id: string;
  type: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  is_error?: boolean;
  content?: ContentBlock[];
}

/** A work item on the /v1 queue, naming the session it runs. */
interface WorkItem {
  id: string;
  state: string;
  data: { id: string };
}

/** A work item as the /api worker protocol hands it to a worker. */
interface Work {
  id: string;
  secret: string;
}

interface PendingTool {
  toolUseId: string;
  input: { file_path?: string };
}

interface ErrorEnvelope {
  type: string;
  error: { message: string };
}

/** A stale heartbeat's refusal: the lease as the server sees it. */
interface StaleHeartbeat {
  error: { details: { current_state: { state: string } } };
}

function sessionsTokenOf(secret: string): string {
  return (JSON.parse(Buffer.from(secret, 'base64url').toString('utf8')) as { sessions_token: string })
    .sessions_token;
}

function textOf(event: LoggedEvent): string {
  return (event.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('self-hosted environments: the worker runs the tools on its own machine', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;
  let agentId: string;
  const workdirs: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: api.authHeaders.authorization!.slice('Bearer '.length),
      apiKey: null,
      maxRetries: 0,
      fetch: recordingFetch,
    });
    const skill = await client.beta.skills.create({
      files: [new File([SKILL_MD], 'greeter/SKILL.md', { type: 'text/markdown' })],
    });
    const agent = await api.post<Created>('/v1/agents', {
      name: 'hands elsewhere',
      model: { id: 'scripted', script: WRITE_READ_ANSWER },
      tools: [{ type: 'agent_toolset_20260401' }],
      skills: [{ type: 'custom', skill_id: skill.id }],
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    for (const dir of workdirs) rmSync(dir, { recursive: true, force: true });
  });

  const workdir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentry-customer-'));
    workdirs.push(dir);
    return dir;
  };

  async function selfHostedEnvironment(name: string): Promise<{ id: string; key: string }> {
    const environment = await api.post<Created>('/v1/environments', {
      name,
      config: { type: 'self_hosted' },
    });
    const key = await api.post<{ key: string }>(`/v1/environments/${environment.body.id}/keys`, {});
    expect(key.body.key).toMatch(/^agentry_envkey_/);
    registerSecret('environment key', key.body.key);
    return { id: environment.body.id, key: key.body.key };
  }

  const newSession = async (environmentId: string): Promise<string> =>
    (await api.post<Created>('/v1/sessions', { agent: agentId, environment_id: environmentId })).body.id;

  const say = (sessionId: string, text: string) =>
    api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });

  const events = async (sessionId: string): Promise<LoggedEvent[]> =>
    (await api.get<{ data: LoggedEvent[] }>(`/v1/sessions/${sessionId}/events?limit=1000`)).body.data;

  const idleAfterTurn = (sessionId: string) =>
    pollUntil(`session ${sessionId} idle with end_turn`, async () => {
      const session = await api.get<{ status: string; stop_reason?: { type: string } }>(
        `/v1/sessions/${sessionId}`,
      );
      return session.body.status === 'idle' && session.body.stop_reason?.type === 'end_turn'
        ? session.body
        : undefined;
    });

  it('runs write, read and a downloaded skill through the official SDK worker, in its workdir, and stops the item when it stops', async () => {
    const environment = await selfHostedEnvironment('laptop');
    const sessionId = await newSession(environment.id);
    const dir = workdir();
    const stopWorker = new AbortController();
    const workerClient = new Anthropic({
      baseURL: platform.gatewayUrl,
      apiKey: null,
      authToken: environment.key,
      maxRetries: 0,
      logLevel: 'off',
    });
    const running = workerClient.beta.environments.work
      .worker({
        environmentId: environment.id,
        environmentKey: environment.key,
        workdir: dir,
        workerId: 'e2e-laptop',
      })
      .run(stopWorker.signal)
      .catch((error: unknown) => error);

    await say(sessionId, 'write the note, read it back, and read the greeter skill');
    await idleAfterTurn(sessionId);

    expect(readFileSync(join(dir, NOTE.file_path), 'utf8')).toBe(NOTE.content);
    const log = await events(sessionId);
    const types = log.map((e) => e.type);
    const uses = log.filter((e) => e.type === 'agent.tool_use');
    const results = log.filter((e) => e.type === 'user.tool_result');
    expect(uses.map((e) => [e.name, e.input])).toEqual([
      ['write', NOTE],
      ['read', { file_path: NOTE.file_path }],
      ['read', { file_path: 'skills/greeter/SKILL.md' }],
    ]);
    expect(results.map((e) => e.tool_use_id)).toEqual(uses.map((e) => e.id));
    expect(results.map((e) => Boolean(e.is_error))).toEqual([false, false, false]);
    expect(textOf(results[1]!)).toContain(NOTE.content);
    expect(textOf(results[2]!)).toContain('Say hello first.');
    expect(types.indexOf('agent.tool_use')).toBeLessThan(types.indexOf('user.tool_result'));
    expect(types.lastIndexOf('user.tool_result')).toBeLessThan(types.lastIndexOf('agent.message'));
    expect(textOf(log.findLast((e) => e.type === 'agent.message')!)).toBe(
      'The note is written and reads back.',
    );

    const item = (
      await api.get<{ data: WorkItem[] }>(`/v1/environments/${environment.id}/work`)
    ).body.data.find((w) => w.data.id === sessionId);
    expect(item?.state).not.toBe('stopped');
    stopWorker.abort();
    await running;
    await pollUntil('the work item to stop', async () => {
      const work = await api.get<WorkItem>(`/v1/environments/${environment.id}/work/${item!.id}`);
      return work.body.state === 'stopped' ? work.body : undefined;
    });
    const stats = await client.beta.environments.work.stats(environment.id);
    expect(stats).toMatchObject({ type: 'work_queue_stats', depth: 0 });
  });

  describe('the /api worker protocol by plain HTTP, and what worker credentials cannot do', () => {
    let environment: { id: string; key: string };
    let worker: ApiClient;
    let sessionId: string;
    let work: Work;

    const keyHeader = () => ({ 'x-builder-environment-key': environment.key });
    const pendingTools = async (): Promise<PendingTool[]> =>
      (
        await worker.get<PendingTool[]>(
          `/api/environments/${environment.id}/sessions/${sessionId}/pending-tools`,
          keyHeader(),
        )
      ).body;

    beforeAll(async () => {
      environment = await selfHostedEnvironment('build box');
      worker = new ApiClient(platform.gatewayUrl);
      sessionId = await newSession(environment.id);
      await api.post(`/api/sessions/${sessionId}/events`, {
        events: [{ type: 'user.message', payload: { text: 'over plain HTTP' } }],
      });
      const polled = await worker.get<Work>(
        `/api/environments/${environment.id}/work/poll?workerId=http-worker&timeoutMs=20000`,
        keyHeader(),
      );
      expect(polled.status).toBe(200);
      work = polled.body;
    });

    it('polls, acks, runs the pending calls, posts their results and sees the turn finish', async () => {
      expect(work).toMatchObject({
        type: 'work',
        sessionId,
        environmentId: environment.id,
        status: 'starting',
      });
      const acked = await worker.post<{ workId: string }>(
        `/api/environments/${environment.id}/work/${work.id}/ack`,
        { workerId: 'http-worker', workDir: '/srv/hands' },
        keyHeader(),
      );
      expect(acked.status).toBe(200);
      expect(acked.body.workId).toBe(work.id);
      const beat = await worker.post(
        `/api/environments/${environment.id}/work/${work.id}/heartbeat`,
        { expectedLastHeartbeat: 'NO_HEARTBEAT' },
        keyHeader(),
      );
      expect(beat.status).toBe(200);
      expect(beat.body).toMatchObject({ type: 'work_heartbeat', leaseExtended: true });

      const skills = await worker.get(
        `/api/environments/${environment.id}/sessions/${sessionId}/skills`,
        keyHeader(),
      );
      expect(skills.body).toMatchObject({
        sessionId,
        agentId,
        skills: [{ name: 'greeter', skillContent: SKILL_MD, resources: {} }],
      });

      const [write] = await pendingTools();
      expect(write).toMatchObject({ name: 'write', toolName: 'write', input: NOTE, state: 'pending' });
      const empty = await worker.post(
        `/api/environments/${environment.id}/sessions/${sessionId}/tool-results`,
        { results: [] },
        keyHeader(),
      );
      expect(empty.status).toBe(400);
      const posted = await worker.post(
        `/api/environments/${environment.id}/sessions/${sessionId}/tool-results`,
        {
          results: [
            { toolUseId: write!.toolUseId, name: 'write', output: `wrote ${NOTE.content.length} bytes` },
          ],
        },
        keyHeader(),
      );
      expect(posted.status).toBe(200);
      expect(posted.body).toMatchObject([
        { type: 'user.tool_result', payload: { tool_use_id: write!.toolUseId } },
      ]);

      for (const expected of [NOTE.file_path, 'skills/greeter/SKILL.md']) {
        const [call] = await pollUntil(`the read of ${expected}`, async () => {
          const pending = await pendingTools();
          return pending[0]?.input.file_path === expected ? pending : undefined;
        });
        await worker.post(
          `/api/environments/${environment.id}/sessions/${sessionId}/tool-results`,
          {
            results: [{ tool_use_id: call!.toolUseId, content: `contents of ${expected}`, is_error: false }],
          },
          keyHeader(),
        );
      }
      await idleAfterTurn(sessionId);
      const log = await events(sessionId);
      expect(log.filter((e) => e.type === 'user.tool_result').map(textOf)).toEqual([
        `wrote ${NOTE.content.length} bytes`,
        `contents of ${NOTE.file_path}`,
        'contents of skills/greeter/SKILL.md',
      ]);
      expect(log.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'end_turn' } });
      expect(await pendingTools()).toEqual([]);
    });

    it('keeps a sessions token to its own session and item: another session is 404, other routes 401', async () => {
      const token = new ApiClient(platform.gatewayUrl).as({ token: sessionsTokenOf(work.secret) });
      expect((await token.get<Created>(`/v1/sessions/${sessionId}`)).body.id).toBe(sessionId);
      expect((await token.get(`/v1/sessions/${sessionId}/events?limit=5`)).status).toBe(200);
      const otherSession = await newSession(environment.id);
      expectError(await token.get(`/v1/sessions/${otherSession}`), 404);
      expectError(await token.get(`/v1/sessions/${otherSession}/events`), 404);
      expectError(await token.get('/v1/agents'), 401, /sessions token only reaches its own session/);
      expectError(await token.get(`/v1/environments/${environment.id}/work/poll`), 401);
      expectError(
        await token.get(`/api/environments/${environment.id}/sessions/${sessionId}/pending-tools`),
        401,
      );
      // It answers tool calls; it cannot speak for the user.
      const message = {
        events: [{ type: 'user.message', content: [{ type: 'text', text: 'from the worker' }] }],
      };
      expectError(
        await token.post(`/v1/sessions/${sessionId}/events`, message),
        403,
        /only send user.tool_result/,
      );
    });

    it('answers a stale heartbeat with 412 and the lease as the server sees it, which the SDK reads', async () => {
      const stale = await worker.post<StaleHeartbeat>(
        `/api/environments/${environment.id}/work/${work.id}/heartbeat`,
        { expectedLastHeartbeat: '2020-01-01T00:00:00.000Z' },
        keyHeader(),
      );
      expectError(stale, 412);
      const aState: unknown = expect.any(String);
      expect(stale.body.error.details.current_state).toMatchObject({ state: aState });

      const sdk = new Anthropic({
        baseURL: platform.gatewayUrl,
        apiKey: null,
        authToken: environment.key,
        maxRetries: 0,
        logLevel: 'off',
      });
      const error = await sdk.beta.environments.work
        .heartbeat(work.id, {
          environment_id: environment.id,
          expected_last_heartbeat: '2020-01-01T00:00:00.000Z',
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BetaHeartbeatPreconditionFailedError);
      expect((error as { error: StaleHeartbeat }).error.error.details.current_state.state).toEqual(
        expect.any(String),
      );
    });

    it("refuses another environment's key with 403, a revoked key with 401, and user tokens on worker-only routes", async () => {
      const other = await selfHostedEnvironment('someone else');
      const crossed = await worker.get(
        `/api/environments/${environment.id}/work/poll?workerId=x&timeoutMs=0`,
        { 'x-builder-environment-key': other.key },
      );
      expectError(crossed, 403, new RegExp(`belongs to environment ${other.id}, not ${environment.id}`));
      expectError(
        await worker.get(`/v1/environments/${environment.id}/work/stats`, {
          authorization: `Bearer ${other.key}`,
        }),
        403,
      );
      expectError(
        await worker.get('/v1/agents', { authorization: `Bearer ${other.key}` }),
        401,
        /environment key only opens/,
      );

      const keys = await api.get<{ data: Created[] }>(`/v1/environments/${other.id}/keys`);
      await api.post(`/v1/environments/${other.id}/keys/${keys.body.data[0]!.id}/revoke`, {});
      expectError(
        await worker.get(`/v1/environments/${other.id}/work/poll`, { authorization: `Bearer ${other.key}` }),
        401,
      );

      expectError(
        await api.get(`/api/environments/${environment.id}/work/poll?workerId=me&timeoutMs=0`),
        403,
        /environment's worker/,
      );
      expect((await api.get(`/api/environments/${environment.id}/work/stats`)).body).toMatchObject({
        type: 'work_queue_stats',
      });
      expectError(await api.get(`/v1/environments/env_not_mine/work`), 404);
      const hands = await api.get('/api/hands/status');
      const aString: unknown = expect.any(String);
      const aNumber: unknown = expect.any(Number);
      expect(hands.body).toMatchObject({
        brainInstanceId: aString,
        workerHeartbeats: { 'http-worker': aNumber },
      });
    });

    it('stops the item, after which its sessions token no longer works', async () => {
      const stopped = await worker.post(
        `/api/environments/${environment.id}/work/${work.id}/stop`,
        { force: true },
        keyHeader(),
      );
      expect(stopped.status).toBe(200);
      const aTimestamp: unknown = expect.any(String);
      expect(stopped.body).toMatchObject({ status: 'stopped', stoppedAt: aTimestamp });
      const token = new ApiClient(platform.gatewayUrl).as({ token: sessionsTokenOf(work.secret) });
      expectError(await token.get(`/v1/sessions/${sessionId}`), 401);
    });
  });
});

function expectError(response: ApiResponse<unknown>, status: number, message?: RegExp): void {
  const body = response.body as ErrorEnvelope | null;
  expect({ status: response.status, type: body?.type }).toEqual({ status, type: 'error' });
  if (message) expect(body?.error.message).toMatch(message);
}
