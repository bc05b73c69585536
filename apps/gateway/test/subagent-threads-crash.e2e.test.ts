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

type LoggedEvent = { id: string; type: string } & Record<string, unknown>;

/** The sub-agent's own model, named in its declaration; still in its call when the dataplane is killed. */
const CHECKER_MODEL = 'scripted/checker';
const CHECKER_SCRIPT = { turns: [{ reply: [{ delayMs: 4_000, text: 'Checked: all links work.' }] }] };
const CHECKER_MD = [
  '---',
  'description: Checks links',
  `model: ${JSON.stringify({ id: CHECKER_MODEL, script: CHECKER_SCRIPT })}`,
  '---',
  'You check links.',
  '',
].join('\n');
const LEAD_SCRIPT = {
  turns: [
    {
      match: '^review',
      reply: [
        {
          toolCall: {
            name: 'agent_spawn',
            input: { agent_id: 'checker', task: 'Check the links.', timeout_seconds: 300 },
          },
        },
        'Lead saw: {{tool_results}}',
      ],
    },
  ],
};

const textOf = (event: LoggedEvent | undefined): string =>
  ((event?.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? '').join('');

/**
 * A `subagents/<id>.md` sub-agent runs as a session thread on the model its declaration names, and its
 * task (and the primary's `agent_spawn` waiting on it) finishes after the dataplane is killed mid-task.
 */
describe('a subagents/*.md sub-agent survives a crashed dataplane', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '500' },
      readyTimeoutMs: 300_000,
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  /** A probe that fails (a service restarting) counts as "not yet". */
  const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000) =>
    pollUntil(what, probe, timeoutMs, { retryErrors: true });
  const history = async (sessionId: string, threadId?: string) => {
    const all: LoggedEvent[] = [];
    const pages = threadId
      ? client.beta.sessions.threads.events.list(threadId, { session_id: sessionId, limit: 1000 })
      : client.beta.sessions.events.list(sessionId, { limit: 1000 });
    for await (const event of pages) all.push(event as unknown as LoggedEvent);
    return all;
  };

  it('runs the declared model as a thread and answers the waiting agent_spawn after a SIGKILL', async () => {
    const lead = await client.beta.agents.create({
      name: 'lead',
      model: { id: 'scripted', script: LEAD_SCRIPT } as never,
    });
    const put = await api.request('PUT', `/api/agents/${lead.id}/workspace/file`, {
      path: 'subagents/checker.md',
      content: CHECKER_MD,
    });
    expect(put.status).toBe(200);
    const environment = await client.beta.environments.create({
      name: 'local',
      config: { type: 'local' } as never,
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environment.id });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'review the page' }] }],
    });

    const threadId = await until('the checker thread in its model call', async () => {
      for await (const thread of client.beta.sessions.threads.list(session.id)) {
        if (thread.parent_thread_id === null) continue;
        const own = await history(session.id, thread.id);
        if (own.some((e) => e.type === 'span.model_request_start')) return thread.id;
      }
      return undefined;
    });

    await platform.service('dataplane').kill('SIGKILL');
    platform.service('dataplane').start();
    await platform.service('dataplane').waitReady(300_000);

    const log = await until(
      "the lead's answer with the checker's",
      async () => {
        const events = await history(session.id);
        const answered = events.some((e) => e.type === 'agent.message' && textOf(e).startsWith('Lead saw:'));
        return answered && events.at(-1)?.type === 'session.status_idle' ? events : undefined;
      },
      120_000,
    );
    const final = log.findLast((e) => e.type === 'agent.message');
    expect(textOf(final)).toContain('Checked: all links work.');
    // The spawning call answered once, with the sub-agent's answer.
    const results = log.filter((e) => e.type === 'agent.tool_result');
    expect(results).toHaveLength(1);
    expect(textOf(results[0])).toContain('Checked: all links work.');

    // One thread, resumed on the restarted dataplane, answering once, on the declared model.
    const threads = [];
    for await (const thread of client.beta.sessions.threads.list(session.id)) threads.push(thread);
    expect(threads).toHaveLength(2);
    const child = threads.find((t) => t.id === threadId)!;
    expect(child.agent).toMatchObject({
      type: 'inline',
      name: 'checker',
      description: 'Checks links',
      system: 'You check links.',
      model: { id: CHECKER_MODEL },
    });
    const own = await history(session.id, threadId);
    expect(own.filter((e) => e.type === 'agent.message').map(textOf)).toEqual(['Checked: all links work.']);
    expect(own.map((e) => e.type)).toContain('session.thread_status_rescheduled');
    const childModels = new Set(own.filter((e) => e.type === 'span.model_request_start').map((e) => e.model));
    expect([...childModels]).toEqual([CHECKER_MODEL]);
    const leadModels = new Set(log.filter((e) => e.type === 'span.model_request_start').map((e) => e.model));
    expect([...leadModels]).toEqual(['scripted']);
  }, 600_000);
});
