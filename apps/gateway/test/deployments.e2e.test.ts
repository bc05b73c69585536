import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
import type { Created, ErrorReply } from './wire-types.js';

/** An /api deployment, read for its trigger and, once, its webhook token. */
interface ApiDeployment {
  id: string;
  triggerType: string;
  webhookToken?: string;
}

/** A deployment run or one agent's part of a multi-agent run, read for the session it started. */
interface RunResult {
  sessionId: string;
  status: string;
}

interface AgentRunResult extends RunResult {
  agentId: string;
  reply: string;
  error: unknown;
}

/** Deployments run for real: the SDK's `run`, a webhook without credentials, and multi-agent fan-out. */
describe('deployments and multi-agent runs across the five services', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let token: string;

  async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    auth = true,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  function replyOf(sessionId: string): Promise<string> {
    return pollUntil(
      `an agent.message in ${sessionId}`,
      async () => {
        let reply = '';
        for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 })) {
          if (event.type === 'agent.message')
            reply = event.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        }
        return reply || undefined;
      },
      30_000,
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username: 'admin',
      password: 'admin',
    });
    token = login.body.token;
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('runs a deployment with the SDK: its session gets the scripted reply and the run is listed', async () => {
    const agent = await client.beta.agents.create({ name: 'reporter', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'deploy env', config: { type: 'cloud' } });
    const deployment = await client.beta.deployments.create({
      name: 'morning report',
      agent: agent.id,
      environment_id: env.id,
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'morning report please' }] }],
    });
    const run = await client.beta.deployments.run(deployment.id);
    expect(run).toMatchObject({
      type: 'deployment_run',
      deployment_id: deployment.id,
      error: null,
      trigger_context: { type: 'manual' },
    });
    expect(await replyOf(run.session_id!)).toBe('You said: morning report please');
    expect((await client.beta.sessions.retrieve(run.session_id!)) as unknown).toMatchObject({
      deployment_id: deployment.id,
    });

    const runs = [];
    for await (const r of client.beta.deploymentRuns.list({ deployment_id: deployment.id })) runs.push(r);
    expect(runs.map((r) => r.id)).toEqual([run.id]);
    expect(await client.beta.deploymentRuns.retrieve(run.id)).toMatchObject({ session_id: run.session_id });

    // Pausing stops the triggers, not a person: a manual run of a paused deployment still starts.
    await client.beta.deployments.pause(deployment.id);
    const whilePaused = await client.beta.deployments.run(deployment.id);
    expect(await replyOf(whilePaused.session_id!)).toBe('You said: morning report please');
    expect(await client.beta.deployments.retrieve(deployment.id)).toMatchObject({ status: 'paused' });
    await client.beta.deployments.archive(deployment.id);
    const refused = await client.beta.deployments.run(deployment.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.ConflictError);
    expect((refused as Error).message).toMatch(/archived/);
  });

  it('starts a run from a webhook URL without credentials; the token is shown once and unknown ones are 404', async () => {
    const agent = await call<Created>('POST', '/api/agents', { name: 'hooked', model: 'scripted' });
    const env = await call<Created>('POST', '/api/environments', { name: 'hook env', type: 'remote' });
    const created = await call<ApiDeployment>('POST', '/api/deployments', {
      name: 'on push',
      agentId: agent.body.id,
      environmentId: env.body.id,
      triggerType: 'webhook',
      text: 'a push happened',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      triggerType: 'webhook',
      text: 'a push happened',
      enabled: true,
    });
    expect(created.body.webhookToken).toMatch(/^dwh_/);
    const hook = created.body.webhookToken!;
    const fetched = await call<ApiDeployment>('GET', `/api/deployments/${created.body.id}`);
    expect(fetched.body.triggerType).toBe('webhook');
    expect(JSON.stringify(fetched.body)).not.toContain(hook);

    const fired = await call<RunResult>(
      'POST',
      `/api/deployments/webhook/${hook}`,
      { text: 'push to main' },
      false,
    );
    expect(fired.status).toBe(200);
    expect(fired.body).toMatchObject({
      deploymentId: created.body.id,
      status: 'succeeded',
    });
    expect(fired.body.sessionId).toEqual(expect.any(String));
    expect(await replyOf(fired.body.sessionId)).toBe('You said: push to main');

    const unknown = await call('POST', '/api/deployments/webhook/dwh_not-a-real-token', {}, false);
    expect(unknown.status).toBe(404);

    const manual = await call<RunResult>('POST', `/api/deployments/${created.body.id}/run`, {});
    expect(manual.body).toMatchObject({ status: 'succeeded' });
    expect(await replyOf(manual.body.sessionId)).toBe('You said: a push happened');
    const deleted = await call('DELETE', `/api/deployments/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await call('POST', `/api/deployments/webhook/${hook}`, {}, false)).status).toBe(404);
    // That 404 was logged, with the token masked.
    const gatewayLog = await readFile(join(platform.workdirRoot, '..', 'gateway.log'), 'utf8');
    expect(gatewayLog).toContain('/api/deployments/webhook/[redacted]');
    expect(gatewayLog).not.toContain(hook);
  });

  it('rejects a cron deployment without an expression, naming the field, and creates nothing', async () => {
    const before = (await call<unknown[]>('GET', '/api/deployments')).body.length;
    const bad = await call<ErrorReply>('POST', '/api/deployments', {
      name: 'x',
      agentId: 'agent_x',
      environmentId: 'env_x',
      triggerType: 'cron',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: 'cronExpression' });
    expect((await call<unknown[]>('GET', '/api/deployments')).body.length).toBe(before);
  });

  it('fans one message out to two agents and returns both replies', async () => {
    const first = await call<Created>('POST', '/api/agents', { name: 'first', model: 'scripted' });
    const second = await call<Created>('POST', '/api/agents', { name: 'second', model: 'scripted' });
    const env = await call<Created>('POST', '/api/environments', { name: 'fan env', type: 'remote' });
    const ran = await call<{ results: AgentRunResult[] }>('POST', '/api/multiagent/run', {
      agentIds: [first.body.id, second.body.id],
      message: 'status?',
      environmentId: env.body.id,
      parallel: true,
    });
    expect(ran.status).toBe(200);
    const results = ran.body.results.map(({ sessionId, ...rest }) => {
      expect(sessionId).toEqual(expect.any(String));
      return rest;
    });
    expect(results).toEqual([
      {
        agentId: first.body.id,
        status: 'idle',
        reply: 'You said: status?',
        error: null,
      },
      {
        agentId: second.body.id,
        status: 'idle',
        reply: 'You said: status?',
        error: null,
      },
    ]);

    const sessionsBefore = (await call<unknown[]>('GET', '/api/sessions')).body.length;
    const foreign = await call<ErrorReply>('POST', '/api/multiagent/run', {
      agentIds: [first.body.id, 'agent_not_mine'],
      message: 'hi',
      environmentId: env.body.id,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toContain('agent_not_mine');
    expect((await call<unknown[]>('GET', '/api/sessions')).body.length).toBe(sessionsBefore);
  });
});
