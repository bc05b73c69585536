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
import { sessionHistory, sumModelUsage, threadHistory, type LoggedEvent } from './session-logs.js';

const RESEARCHER_SCRIPT = { turns: [{ reply: ['Research: the bridge opened in 1932.'] }] };
const WRITER_SCRIPT = { turns: [{ reply: ['Draft: A bridge, ninety-odd years young.'] }] };
const COORDINATOR_SCRIPT = {
  turns: [
    {
      match: '^plan',
      reply: [
        {
          text: 'Delegating.',
          toolCalls: [
            {
              name: 'send_message_to_agent',
              input: { agent: 'researcher', message: 'Find when the bridge opened.' },
            },
            {
              name: 'send_message_to_agent',
              input: { agent: 'writer', message: 'Write a one-line draft about the bridge.' },
            },
          ],
        },
        'Asked both.',
      ],
    },
    { match: '^Research:', reply: ['Noted the research.'] },
    { match: '^Draft:', reply: ['Noted the draft.'] },
  ],
};

/** A coordinator delegates to two sub-agents, each running as a session thread of its own, through the official SDK. */
describe('session threads', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let coordinatorId: string;
  let researcherId: string;
  let environmentId: string;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Five services start at once; on a busy host that can take longer than the default wait.
    platform = await launchPlatform({ databaseUrl: db.url, readyTimeoutMs: 300_000 });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
    const researcher = await client.beta.agents.create({
      name: 'researcher',
      model: { id: 'scripted', script: RESEARCHER_SCRIPT } as never,
    });
    const writer = await client.beta.agents.create({
      name: 'writer',
      model: { id: 'scripted', script: WRITER_SCRIPT } as never,
    });
    researcherId = researcher.id;
    const coordinator = await client.beta.agents.create({
      name: 'coordinator',
      model: { id: 'scripted', script: COORDINATOR_SCRIPT } as never,
      multiagent: { type: 'coordinator', agents: [researcher.id, writer.id] } as never,
    });
    coordinatorId = coordinator.id;
    environmentId = (await client.beta.environments.create({ name: 'cloud', config: { type: 'cloud' } })).id;
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const history = (sessionId: string) => sessionHistory(client, sessionId);
  const threadLog = (sessionId: string, threadId: string) => threadHistory(client, sessionId, threadId);
  it('runs each delegated agent as a thread with its own events, stream, model and usage', async () => {
    const session = await client.beta.sessions.create({
      agent: coordinatorId,
      environment_id: environmentId,
    });
    const primary = await client.beta.sessions.events.stream(session.id);
    const seen: LoggedEvent[] = [];
    const reading = (async () => {
      for await (const event of primary) {
        seen.push(event as unknown as LoggedEvent);
        if (
          seen.filter((e) => e.type === 'agent.thread_message_received').length === 2 &&
          seen.at(-1)?.type === 'session.status_idle'
        )
          break;
      }
    })();
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'plan the article' }] }],
    });

    // Both answers come back to the primary thread and the coordinator has read them: a turn consumed each
    // (one that arrives while the coordinator's turn on the other runs waits for a turn of its own, so an
    // idle status alone does not say the session is done).
    const log = await pollUntil('both answers on the primary thread, each consumed', async () => {
      const events = await history(session.id);
      const replies = events.filter((e) => e.type === 'agent.thread_message_received');
      const idle = (await client.beta.sessions.retrieve(session.id)).status === 'idle';
      const consumed = replies.every((e) => e.processed_at !== null);
      return replies.length === 2 && consumed && idle && events.at(-1)?.type === 'session.status_idle'
        ? events
        : undefined;
    });
    await reading;
    const typesSeen = seen.map((e) => e.type);
    expect(typesSeen.filter((t) => t === 'session.thread_created')).toHaveLength(2);
    expect(typesSeen.filter((t) => t === 'agent.thread_message_sent')).toHaveLength(2);
    expect(typesSeen.filter((t) => t === 'agent.thread_message_received')).toHaveLength(2);
    expect(typesSeen).toContain('session.thread_status_running');
    expect(typesSeen).toContain('session.thread_status_idle');

    const threads = [];
    for await (const thread of client.beta.sessions.threads.list(session.id)) threads.push(thread);
    expect(threads).toHaveLength(3);
    const [primaryThread, ...children] = threads;
    expect(primaryThread!.parent_thread_id).toBeNull();
    expect(children.map((t) => (t.agent as { name: string }).name).sort()).toEqual(['researcher', 'writer']);
    const researcherThread = children.find((t) => (t.agent as { name: string }).name === 'researcher')!;
    expect(researcherThread).toMatchObject({
      type: 'session_thread',
      session_id: session.id,
      parent_thread_id: primaryThread!.id,
      status: 'idle',
    });
    expect(researcherThread.agent).toMatchObject({
      type: 'agent',
      id: researcherId,
      version: 1,
      model: { id: 'scripted' },
    });
    const created = log.find(
      (e) => e.type === 'session.thread_created' && e.session_thread_id === researcherThread.id,
    );
    expect(created).toMatchObject({ agent_name: 'researcher', workflow_run_id: null });
    const reply = log.find(
      (e) => e.type === 'agent.thread_message_received' && e.from_session_thread_id === researcherThread.id,
    );
    expect(reply).toMatchObject({
      from_agent_name: 'researcher',
      content: [{ type: 'text', text: 'Research: the bridge opened in 1932.' }],
    });

    // Each thread's own log: the message it was sent, its own model's answer, the answer sent back.
    const logs = new Map<string, LoggedEvent[]>();
    for (const child of children) {
      const own = await threadLog(session.id, child.id);
      logs.set(child.id, own);
      expect(own.map((e) => e.type)).toEqual(
        expect.arrayContaining([
          'agent.thread_message_received',
          'agent.message',
          'agent.thread_message_sent',
          'session.thread_status_running',
          'session.thread_status_idle',
        ]),
      );
      // The thread's own statuses, as CMA types them: never the session's.
      expect(own.some((e) => e.type.startsWith('session.status_'))).toBe(false);
      expect(own.find((e) => e.type === 'session.thread_status_idle')).toMatchObject({
        session_thread_id: child.id,
        agent_name: (child.agent as { name: string }).name,
        stop_reason: { type: 'end_turn' },
      });
      expect(own.find((e) => e.type === 'agent.thread_message_received')).toMatchObject({
        from_session_thread_id: primaryThread!.id,
      });
      expect(own.find((e) => e.type === 'agent.thread_message_sent')).toMatchObject({
        to_session_thread_id: primaryThread!.id,
      });
    }
    const researcherLog = logs.get(researcherThread.id)!;
    expect(researcherLog.find((e) => e.type === 'agent.message')).toMatchObject({
      content: [{ type: 'text', text: 'Research: the bridge opened in 1932.' }],
    });
    expect(researcherLog.some((e) => JSON.stringify(e).includes('Draft:'))).toBe(false);

    // The thread's stream replays its log from the start when resumed from Last-Event-ID 0.
    const stream = await client.beta.sessions.threads.events.stream(
      researcherThread.id,
      { session_id: session.id },
      { headers: { 'Last-Event-ID': '0' } },
    );
    const streamed: string[] = [];
    for await (const event of stream) {
      streamed.push((event as { id: string }).id);
      if (streamed.length === researcherLog.length) break;
    }
    expect(streamed).toEqual(researcherLog.map((e) => e.id));

    // Usage (docs/budgets.md): a call counts on the session, and on the thread it ran in, when it is
    // settled; nothing was cut off here, so every settled call has its span in the log it ran in.
    for (const child of children) {
      const retrieved = await client.beta.sessions.threads.retrieve(child.id, { session_id: session.id });
      const own = logs.get(child.id)!;
      expect(retrieved.usage?.input_tokens).toBe(sumModelUsage(own, 'input_tokens'));
      expect(retrieved.usage?.output_tokens).toBe(sumModelUsage(own, 'output_tokens'));
      expect(retrieved.usage?.input_tokens).toBeGreaterThan(0);
    }
    const sessionUsage = (await client.beta.sessions.retrieve(session.id)).usage as {
      input_tokens: number;
      output_tokens: number;
    };
    const allLogs = [log, ...logs.values()];
    expect(sessionUsage.input_tokens).toBe(
      allLogs.reduce((sum, l) => sum + sumModelUsage(l, 'input_tokens'), 0),
    );
    expect(sessionUsage.output_tokens).toBe(
      allLogs.reduce((sum, l) => sum + sumModelUsage(l, 'output_tokens'), 0),
    );
    const spans = allLogs.flat().filter((e) => e.type === 'span.model_request_end').length;
    const ledger = await fetch(`${platform.gatewayUrl}/v1/usage?session_id=${session.id}`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json() as Promise<{ data: Array<Record<string, number>> }>);
    expect(ledger.data).toEqual([
      expect.objectContaining({
        model_requests: spans,
        input_tokens: sessionUsage.input_tokens,
        output_tokens: sessionUsage.output_tokens,
      }),
    ]);
    const threadsNow = [];
    for await (const thread of client.beta.sessions.threads.list(session.id)) threadsNow.push(thread);
    expect(threadsNow.reduce((sum, t) => sum + (t.usage?.input_tokens ?? 0), 0)).toBe(
      sessionUsage.input_tokens,
    );
    expect(threadsNow.reduce((sum, t) => sum + (t.usage?.output_tokens ?? 0), 0)).toBe(
      sessionUsage.output_tokens,
    );

    // Threads are not sessions of their own in the session list.
    const sessions = [];
    for await (const listed of client.beta.sessions.list()) sessions.push(listed.id);
    expect(sessions).toEqual([session.id]);
  }, 120_000);
  it('a user.interrupt naming a thread stops that thread only', async () => {
    const slowpoke = await client.beta.agents.create({
      name: 'slowpoke',
      model: {
        id: 'scripted',
        script: { turns: [{ reply: [{ delayMs: 30_000, text: 'Too late.' }] }] },
      } as never,
    });
    const steady = await client.beta.agents.create({
      name: 'steady',
      model: {
        id: 'scripted',
        script: { turns: [{ reply: [{ delayMs: 3_000, text: 'Steady: done.' }] }] },
      } as never,
    });
    const script = {
      turns: [
        {
          match: '^both',
          reply: [
            {
              toolCalls: [
                { name: 'send_message_to_agent', input: { agent: 'slowpoke', message: 'Take your time.' } },
                { name: 'send_message_to_agent', input: { agent: 'steady', message: 'Be quick.' } },
              ],
            },
            'Asked both.',
          ],
        },
        { match: '^Steady:', reply: ['Steady answered.'] },
      ],
    };
    const lead = await client.beta.agents.create({
      name: 'lead',
      model: { id: 'scripted', script } as never,
      multiagent: { type: 'coordinator', agents: [slowpoke.id, steady.id] } as never,
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'both of you' }] }],
    });
    const slowThread = await pollUntil('the slowpoke thread in its model call', async () => {
      for await (const thread of client.beta.sessions.threads.list(session.id)) {
        if ((thread.agent as { name: string }).name !== 'slowpoke') continue;
        const own = await threadLog(session.id, thread.id);
        if (own.some((e) => e.type === 'span.model_request_start')) return thread;
      }
      return undefined;
    });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.interrupt', session_thread_id: slowThread.id }],
    });

    const stopped = await pollUntil(
      'the slowpoke thread stopped',
      async () => {
        const own = await threadLog(session.id, slowThread.id);
        return own.at(-1)?.type === 'session.thread_status_idle' ? own : undefined;
      },
      20_000,
    );
    expect(stopped.map((e) => e.type)).toContain('user.interrupt');
    expect(stopped.some((e) => e.type === 'agent.message')).toBe(false);
    // The other thread and the primary went on: steady's answer reached the primary and was read.
    const log = await pollUntil('steady answered on the primary', async () => {
      const events = await history(session.id);
      const read = events.some(
        (e) => e.type === 'agent.message' && JSON.stringify(e.content).includes('Steady answered.'),
      );
      return read && events.at(-1)?.type === 'session.status_idle' ? events : undefined;
    });
    expect(log.find((e) => e.type === 'user.interrupt')).toMatchObject({ session_thread_id: slowThread.id });
    expect(
      log.filter((e) => e.type === 'agent.thread_message_received').map((e) => e.from_agent_name),
    ).toEqual(['steady']);
  }, 120_000);
});
