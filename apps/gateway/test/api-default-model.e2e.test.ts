import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { waitFor } from './outage-fixture.js';
import type { Created } from './wire-types.js';

/** An /api agent, read for the model it was given. */
interface ApiAgent {
  id: string;
  model: string;
}

/** An /api session event. */
interface ApiEvent {
  type: string;
  payload: { content?: Array<{ text?: string }>; stop_reason?: { type: string } };
}

/**
 * The AgentScope walkthrough (seed 003) as its readers run it: agents defined without a model, on an
 * installation with no provider key. They get the installation's default model (`scripted` here) and
 * every turn reaches idle, instead of naming a provider nobody configured.
 */
describe('/api walkthrough on the default model', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // The launcher passes no provider key to the services.
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const environment = await api.post<Created>('/api/environments', { name: 'laptop', type: 'local' });
    expect(environment.status).toBe(200);
    environmentId = environment.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  /** A session of the agent, one message, and its events once it is idle. */
  async function oneTurn(agentId: string, text: string): Promise<ApiEvent[]> {
    const session = await api.post<Created>('/api/sessions', { agent: agentId, environmentId });
    expect(session.status).toBe(200);
    const sent = await api.post(`/api/sessions/${session.body.id}/events`, {
      events: [{ type: 'user.message', payload: { text } }],
    });
    expect(sent.status).toBe(200);
    return waitFor(
      async () => (await api.get<ApiEvent[]>(`/api/sessions/${session.body.id}/events`)).body,
      (events) => events.some((e) => e.type === 'session.status_idle'),
      60_000,
      `session ${session.body.id} idle`,
    );
  }

  it('defines the Workspace Copilot without a model and runs a turn to idle', async () => {
    const agent = await api.post<ApiAgent>('/api/agents', {
      name: 'Workspace Copilot',
      description: 'blog demo agent',
      system:
        'You are a workspace copilot. Prefer tools when listing or reading files. Keep answers concise.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'read_file', enabled: true },
            { name: 'list_files', enabled: true },
            { name: 'write_file', enabled: true },
          ],
        },
      ],
    });
    expect(agent.status).toBe(200);
    expect(agent.body.model).toBe('scripted');

    const events = await oneTurn(agent.body.id, 'What is in my workspace?');
    expect(events.filter((e) => e.type === 'session.error')).toEqual([]);
    expect(events.find((e) => e.type === 'agent.message')?.payload.content?.[0]?.text).toBe(
      'You said: What is in my workspace?',
    );
    expect(events.at(-1)).toMatchObject({
      type: 'session.status_idle',
      payload: { stop_reason: { type: 'end_turn' } },
    });
  });

  it('defines the three-agent team without models and fans a task out to two of them', async () => {
    const ops = await api.post<ApiAgent>('/api/agents', {
      name: 'Ops Publisher',
      system: 'Draft changelogs and ticket outlines. Do not invoke tools or modify external systems.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: false, permissionPolicy: { type: 'deny' } },
          configs: [{ name: 'read_file', enabled: true, permissionPolicy: { type: 'always_allow' } }],
        },
      ],
    });
    const repo = await api.post<ApiAgent>('/api/agents', {
      name: 'Repo Surgeon',
      system: 'You review the user workspace in read-only mode and report release risks.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'read_file', enabled: true },
            { name: 'grep_files', enabled: true },
            { name: 'list_files', enabled: true },
          ],
        },
      ],
    });
    expect([ops.status, repo.status]).toEqual([200, 200]);
    const lead = await api.post<ApiAgent>('/api/agents', {
      name: 'Team Lead',
      system: 'You coordinate Repo Surgeon and Ops Publisher.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'sessions_spawn', enabled: true },
            { name: 'sessions_list', enabled: true },
            { name: 'sessions_pending_completions', enabled: true },
            { name: 'wait_async_results', enabled: true },
          ],
        },
      ],
      multiagent: {
        type: 'agent_team',
        agents: [
          { type: 'agent', id: repo.body.id },
          { type: 'agent', id: ops.body.id },
        ],
      },
    });
    expect(lead.status).toBe(200);
    expect([ops, repo, lead].map((a) => a.body.model)).toEqual(['scripted', 'scripted', 'scripted']);

    const ran = await api.post<{ results: unknown[] }>('/api/multiagent/run', {
      agentIds: [repo.body.id, ops.body.id],
      message: 'Plan the 2.0 release of the Java library.',
      environmentId,
      parallel: true,
    });
    expect(ran.status).toBe(200);
    expect(ran.body.results).toHaveLength(2);
    expect(ran.body.results[0]).toMatchObject({ agentId: repo.body.id, status: 'idle', error: null });
    expect(ran.body.results[1]).toMatchObject({ agentId: ops.body.id, status: 'idle', error: null });

    const summary = await oneTurn(lead.body.id, 'Summarize the risks and the acceptance checklist.');
    expect(summary.at(-1)).toMatchObject({
      type: 'session.status_idle',
      payload: { stop_reason: { type: 'end_turn' } },
    });
  });
});
