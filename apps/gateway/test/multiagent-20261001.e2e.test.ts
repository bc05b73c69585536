import Anthropic from '@anthropic-ai/sdk';
import type {
  BetaManagedAgentsInlineAgent,
  BetaManagedAgentsSessionThread,
  BetaManagedAgentsSessionThreadUsage,
} from '@anthropic-ai/sdk/resources/beta/sessions/threads/threads.js';
import type {
  BetaManagedAgentsAdvisor,
  BetaManagedAgentsSessionThreadAgent,
} from '@anthropic-ai/sdk/resources/beta/agents/agents.js';
import type {
  BetaManagedAgentsAgentThreadMessageReceivedEvent,
  BetaManagedAgentsAgentThreadMessageSentEvent,
  BetaManagedAgentsSessionThreadCreatedEvent,
  BetaManagedAgentsSessionThreadStatusIdleEvent,
  BetaManagedAgentsSessionThreadStatusRunningEvent,
  BetaManagedAgentsWorkflowRunCreatedEvent,
  BetaManagedAgentsWorkflowRunErrorEvent,
  BetaManagedAgentsWorkflowRunStatusEndedEvent,
} from '@anthropic-ai/sdk/resources/beta/sessions/events.js';
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

// The fields each SDK type declares; `satisfies` fails to compile when the SDK adds or drops one.
const THREAD_KEYS = {
  id: true,
  type: true,
  session_id: true,
  parent_thread_id: true,
  agent: true,
  status: true,
  stats: true,
  usage: true,
  workflow_run_id: true,
  created_at: true,
  updated_at: true,
  archived_at: true,
} satisfies Record<keyof BetaManagedAgentsSessionThread, true>;
const INLINE_AGENT_KEYS = {
  type: true,
  name: true,
  description: true,
  system: true,
  model: true,
  tools: true,
  mcp_servers: true,
  skills: true,
  execution_identity: true,
} satisfies Record<keyof BetaManagedAgentsInlineAgent, true>;
const THREAD_AGENT_KEYS = {
  ...INLINE_AGENT_KEYS,
  type: true,
  id: true,
  version: true,
} satisfies Record<keyof BetaManagedAgentsSessionThreadAgent, true>;
const keysOf = (shape: object) => Object.keys(shape).sort();
/** The event's fields the SDK type requires (extensions the platform adds are allowed beside them). */
const requiredKeys = <T>(keys: Record<keyof T, true>, optional: Array<keyof T> = []) =>
  (Object.keys(keys) as Array<keyof T>).filter((k) => !optional.includes(k)) as string[];
const CREATED_KEYS = requiredKeys<BetaManagedAgentsSessionThreadCreatedEvent>({
  id: true,
  type: true,
  processed_at: true,
  session_thread_id: true,
  agent_name: true,
  workflow_run_id: true,
});
const RUNNING_KEYS = requiredKeys<BetaManagedAgentsSessionThreadStatusRunningEvent>({
  id: true,
  type: true,
  processed_at: true,
  session_thread_id: true,
  agent_name: true,
});
const IDLE_KEYS = requiredKeys<BetaManagedAgentsSessionThreadStatusIdleEvent>({
  id: true,
  type: true,
  processed_at: true,
  session_thread_id: true,
  agent_name: true,
  stop_reason: true,
  stop_details: true,
});
const SENT_KEYS = requiredKeys<BetaManagedAgentsAgentThreadMessageSentEvent>(
  {
    id: true,
    type: true,
    processed_at: true,
    content: true,
    to_session_thread_id: true,
    to_agent_name: true,
  },
  ['to_agent_name'],
);
const RECEIVED_KEYS = requiredKeys<BetaManagedAgentsAgentThreadMessageReceivedEvent>(
  {
    id: true,
    type: true,
    processed_at: true,
    content: true,
    from_session_thread_id: true,
    from_agent_name: true,
  },
  ['from_agent_name'],
);
const ADVISOR_MODEL = 'scripted/advisor';
const ADVISOR_KEYS = { type: true, model: true } satisfies Record<keyof BetaManagedAgentsAdvisor, true>;
const USAGE_NUMBER_KEYS: Array<keyof BetaManagedAgentsSessionThreadUsage> = [
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
];

const RESEARCHER_V1 = { turns: [{ reply: ['Research: the bridge opened in 1932.'] }] };
const RESEARCHER_V2 = { turns: [{ reply: ['Research (v2): unpinned answer.'] }] };
const CRITIC_SCRIPT = { turns: [{ reply: ['Critique: the lede buries the date.'] }] };
const LEAD_SCRIPT = {
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
              input: {
                agent: 'critic',
                message: 'Critique the draft lede.',
                inline_agent: {
                  system: 'You critique drafts in one line.',
                  description: 'A one-line critic',
                  model: { id: 'scripted', script: CRITIC_SCRIPT },
                },
              },
            },
          ],
        },
        'Asked both.',
      ],
    },
    { match: '^Research', reply: ['Noted the research.'] },
    { match: '^Critique:', reply: ['Noted the critique.'] },
  ],
};

const textOf = (event: LoggedEvent | undefined): string =>
  ((event?.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? '').join('');

/**
 * `multiagent_20261001` (CMA): the primary spawns a thread of a predefined agent pinned to a version and one
 * of an inline agent it defines in the call, on the five services through the official SDK.
 */
describe('multiagent_20261001 subagents', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, readyTimeoutMs: 300_000 });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
    environmentId = (await client.beta.environments.create({ name: 'cloud', config: { type: 'cloud' } })).id;
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const history = (sessionId: string) => sessionHistory(client, sessionId);
  const threadLog = (sessionId: string, threadId: string) => threadHistory(client, sessionId, threadId);
  const threadsOf = async (sessionId: string) => {
    const threads: BetaManagedAgentsSessionThread[] = [];
    for await (const thread of client.beta.sessions.threads.list(sessionId)) threads.push(thread);
    return threads;
  };

  it('runs a pinned predefined agent and an inline agent as threads that answer the primary', async () => {
    const researcher = await client.beta.agents.create({
      name: 'researcher',
      model: { id: 'scripted', script: RESEARCHER_V1 } as never,
    });
    // A later version exists, but the roster pins version 1.
    await client.beta.agents.update(researcher.id, {
      version: researcher.version,
      model: { id: 'scripted', script: RESEARCHER_V2 } as never,
    });
    const lead = await client.beta.agents.create({
      name: 'lead',
      model: { id: 'scripted', script: LEAD_SCRIPT } as never,
      tools: [{ type: 'agent_toolset_20260401' }],
      multiagent: {
        type: 'multiagent_20261001',
        subagents: {
          type: 'enabled',
          predefined_agents: [{ type: 'agent', id: researcher.id, version: 1 }],
        },
      },
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'plan the article' }] }],
    });

    // Both answers come back to the primary thread and a turn of the lead has read each: one turn each, or
    // one for both when they arrive together (so the lead's note may name either).
    const log = await pollUntil('both answers on the primary thread, each read by a turn', async () => {
      const events = await history(session.id);
      const replies = events.filter((e) => e.type === 'agent.thread_message_received');
      const consumed = replies.every((e) => e.processed_at !== null && e.processed_at !== undefined);
      const idle = (await client.beta.sessions.retrieve(session.id)).status === 'idle';
      return replies.length === 2 && consumed && idle && events.at(-1)?.type === 'session.status_idle'
        ? events
        : undefined;
    });
    const lastReply = log.findLastIndex((e) => e.type === 'agent.thread_message_received');
    expect(
      log
        .slice(lastReply)
        .some((e) => e.type === 'agent.message' && /^Noted the (research|critique)\.$/.test(textOf(e))),
      'the lead answered after reading the replies',
    ).toBe(true);

    const threads = await threadsOf(session.id);
    expect(threads).toHaveLength(3);
    for (const thread of threads) expect(keysOf(thread)).toEqual(keysOf(THREAD_KEYS));
    const [primaryThread, ...children] = threads;
    expect(primaryThread!.parent_thread_id).toBeNull();
    const researcherThread = children.find((t) => t.agent.type === 'agent')!;
    const criticThread = children.find((t) => t.agent.type === 'inline')!;
    expect(researcherThread).toBeDefined();
    expect(criticThread).toBeDefined();

    // The predefined agent runs the version the roster pins, as a full SDK thread agent.
    const pinned = researcherThread.agent as BetaManagedAgentsSessionThreadAgent;
    expect(keysOf(pinned)).toEqual(keysOf(THREAD_AGENT_KEYS));
    expect(pinned).toMatchObject({ id: researcher.id, version: 1, name: 'researcher' });
    // The inline agent is what the primary defined, with the session agent's tools.
    const inline = criticThread.agent as BetaManagedAgentsInlineAgent;
    expect(keysOf(inline)).toEqual(keysOf(INLINE_AGENT_KEYS));
    expect(inline).toMatchObject({
      type: 'inline',
      name: 'critic',
      description: 'A one-line critic',
      system: 'You critique drafts in one line.',
      model: { id: 'scripted' },
      mcp_servers: [],
      skills: [],
      execution_identity: { type: 'service_account' },
    });
    expect(inline.tools).toEqual(lead.tools);
    for (const child of children)
      expect(child).toMatchObject({
        parent_thread_id: primaryThread!.id,
        status: 'idle',
        workflow_run_id: null,
      });

    // The primary stream: each thread created, sent a message, and answered; the primary read both answers.
    for (const [child, name] of [
      [researcherThread, 'researcher'],
      [criticThread, 'critic'],
    ] as const) {
      const created = log.find(
        (e) => e.type === 'session.thread_created' && e.session_thread_id === child.id,
      );
      expect(created).toMatchObject({ agent_name: name, workflow_run_id: null });
      expect(Object.keys(created!)).toEqual(expect.arrayContaining(CREATED_KEYS));
      const sent = log.find(
        (e) => e.type === 'agent.thread_message_sent' && e.to_session_thread_id === child.id,
      );
      expect(Object.keys(sent!)).toEqual(expect.arrayContaining(SENT_KEYS));
      const received = log.find(
        (e) => e.type === 'agent.thread_message_received' && e.from_session_thread_id === child.id,
      );
      expect(Object.keys(received!)).toEqual(expect.arrayContaining(RECEIVED_KEYS));
      expect(received).toMatchObject({ from_agent_name: name });
      expect(received!.processed_at).not.toBeNull();
    }
    const answerOf = (threadId: string) =>
      textOf(
        log.find((e) => e.type === 'agent.thread_message_received' && e.from_session_thread_id === threadId),
      );
    expect(answerOf(researcherThread.id)).toBe('Research: the bridge opened in 1932.');
    expect(answerOf(criticThread.id)).toBe('Critique: the lede buries the date.');

    // Each thread's own event list and stream: its statuses as the SDK types them, never the session's.
    const logs = new Map<string, LoggedEvent[]>();
    for (const child of children) {
      const own = await threadLog(session.id, child.id);
      logs.set(child.id, own);
      expect(own.some((e) => e.type.startsWith('session.status_'))).toBe(false);
      const running = own.find((e) => e.type === 'session.thread_status_running');
      expect(Object.keys(running!)).toEqual(expect.arrayContaining(RUNNING_KEYS));
      const idle = own.findLast((e) => e.type === 'session.thread_status_idle');
      expect(Object.keys(idle!)).toEqual(expect.arrayContaining(IDLE_KEYS));
      expect(idle).toMatchObject({ session_thread_id: child.id, stop_reason: { type: 'end_turn' } });
      expect(own.find((e) => e.type === 'agent.thread_message_received')).toMatchObject({
        from_session_thread_id: primaryThread!.id,
      });
      expect(own.find((e) => e.type === 'agent.thread_message_sent')).toMatchObject({
        to_session_thread_id: primaryThread!.id,
      });

      const stream = await client.beta.sessions.threads.events.stream(
        child.id,
        { session_id: session.id },
        { headers: { 'Last-Event-ID': '0' } },
      );
      const streamed: string[] = [];
      for await (const event of stream) {
        streamed.push((event as { id: string }).id);
        if (streamed.length === own.length) break;
      }
      expect(streamed).toEqual(own.map((e) => e.id));
    }
    expect(textOf(logs.get(criticThread.id)!.find((e) => e.type === 'agent.message'))).toBe(
      'Critique: the lede buries the date.',
    );

    // Usage: each thread's is what its own spans say, and the threads' add up to the session's.
    const settled = await threadsOf(session.id);
    for (const child of children) {
      const usage = settled.find((t) => t.id === child.id)!.usage!;
      for (const key of USAGE_NUMBER_KEYS) expect(typeof usage[key]).toBe('number');
      expect(usage.input_tokens).toBe(sumModelUsage(logs.get(child.id)!, 'input_tokens'));
      expect(usage.output_tokens).toBe(sumModelUsage(logs.get(child.id)!, 'output_tokens'));
      expect(usage.input_tokens).toBeGreaterThan(0);
    }
    const sessionUsage = (await client.beta.sessions.retrieve(session.id)).usage;
    const allLogs = [log, ...logs.values()];
    for (const key of ['input_tokens', 'output_tokens'] as const) {
      expect(sessionUsage[key]).toBe(allLogs.reduce((sum, l) => sum + sumModelUsage(l, key), 0));
      expect(settled.reduce((sum, t) => sum + (t.usage?.[key] ?? 0), 0)).toBe(sessionUsage[key]);
    }
  }, 120_000);

  it('refuses an inline agent when inline agents are disabled, and still reaches predefined ones', async () => {
    const helper = await client.beta.agents.create({
      name: 'helper',
      model: { id: 'scripted', script: { turns: [{ reply: ['Helped.'] }] } } as never,
    });
    const script = {
      turns: [
        {
          match: '^go',
          reply: [
            {
              toolCalls: [
                {
                  name: 'send_message_to_agent',
                  input: { agent: 'ghost', message: 'Boo.', inline_agent: { system: 'You haunt.' } },
                },
                { name: 'send_message_to_agent', input: { agent: 'helper', message: 'Help.' } },
              ],
            },
            'Tried.',
          ],
        },
        { match: '^Helped', reply: ['Thanks, helper.'] },
      ],
    };
    const lead = await client.beta.agents.create({
      name: 'strict-lead',
      model: { id: 'scripted', script } as never,
      multiagent: {
        type: 'multiagent_20261001',
        subagents: { type: 'enabled', inline_agents: { type: 'disabled' }, predefined_agents: [helper.id] },
      },
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    const log = await pollUntil('the helper answered and the lead read it', async () => {
      const events = await history(session.id);
      return events.some((e) => e.type === 'agent.message' && textOf(e) === 'Thanks, helper.') &&
        events.at(-1)?.type === 'session.status_idle'
        ? events
        : undefined;
    });
    const [refused, delegated] = log.filter((e) => e.type === 'agent.tool_result');
    expect(refused).toMatchObject({ is_error: true });
    expect(textOf(refused)).toContain('agent');
    expect(delegated).toMatchObject({ is_error: false });
    expect(log.filter((e) => e.type === 'session.thread_created').map((e) => e.agent_name)).toEqual([
      'helper',
    ]);
    const threads = await threadsOf(session.id);
    expect(threads.map((t) => t.agent.type)).toEqual(['agent', 'agent']);
  }, 60_000);

  it('consults the advisor on its own thread, its usage counted there and on the session', async () => {
    const script = {
      turns: [
        {
          match: '^decide',
          reply: [
            { toolCall: { name: 'consult_advisor', input: { question: 'Ship on Friday?' } } },
            'Lead decided: {{tool_results}}',
          ],
        },
      ],
    };
    const lead = await client.beta.agents.create({
      name: 'advised-lead',
      model: { id: 'scripted', script } as never,
      multiagent: {
        type: 'multiagent_20261001',
        advisor: { type: 'enabled', model: ADVISOR_MODEL },
        subagents: { type: 'disabled' },
      },
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'decide the release day' }] }],
    });
    const log = await pollUntil('the lead answered with the advice', async () => {
      const events = await history(session.id);
      return events.some((e) => e.type === 'agent.message' && textOf(e).startsWith('Lead decided:')) &&
        events.at(-1)?.type === 'session.status_idle'
        ? events
        : undefined;
    });
    // The scripted advisor model echoes the question it was asked.
    expect(textOf(log.findLast((e) => e.type === 'agent.message'))).toBe(
      'Lead decided: You said: Ship on Friday?',
    );

    const threads = await threadsOf(session.id);
    expect(threads).toHaveLength(2);
    const advisorThread = threads.find((t) => t.agent.type === 'advisor')!;
    const advisor = advisorThread.agent as BetaManagedAgentsAdvisor;
    expect(keysOf(advisor)).toEqual(keysOf(ADVISOR_KEYS));
    expect(advisor.model).toBe(ADVISOR_MODEL);
    expect(log.find((e) => e.type === 'session.thread_created')).toMatchObject({
      session_thread_id: advisorThread.id,
      agent_name: 'advisor',
    });
    const own = await threadLog(session.id, advisorThread.id);
    expect(own.filter((e) => e.type === 'span.model_request_start').map((e) => e.model)).toEqual([
      ADVISOR_MODEL,
    ]);
    expect(textOf(own.find((e) => e.type === 'agent.message'))).toBe('You said: Ship on Friday?');

    const advisorUsage = advisorThread.usage!;
    expect(advisorUsage.input_tokens).toBeGreaterThan(0);
    expect(advisorUsage.input_tokens).toBe(sumModelUsage(own, 'input_tokens'));
    expect(advisorUsage.output_tokens).toBe(sumModelUsage(own, 'output_tokens'));
    const sessionUsage = (await client.beta.sessions.retrieve(session.id)).usage;
    for (const key of ['input_tokens', 'output_tokens'] as const) {
      expect(sessionUsage[key]).toBe(sumModelUsage(log, key) + sumModelUsage(own, key));
      expect(threads.reduce((sum, t) => sum + (t.usage?.[key] ?? 0), 0)).toBe(sessionUsage[key]);
    }
  }, 60_000);

  /** A lead whose plan is `plan`; it reads the run's report when it arrives. */
  const workflowLead = async (name: string, plan: unknown) => {
    const worker = await client.beta.agents.create({ name: `${name}-worker`, model: 'scripted' });
    const script = {
      turns: [
        {
          match: '^go',
          reply: [
            { toolCall: { name: 'workflow_run', input: { name, description: 'Fan out', plan } } },
            'Started.',
          ],
        },
        { match: 'Workflow run', reply: ['Lead read the report.'] },
      ],
    };
    const lead = await client.beta.agents.create({
      name: `${name}-lead`,
      model: { id: 'scripted', script } as never,
      multiagent: {
        type: 'multiagent_20261001',
        subagents: { type: 'disabled' },
        workflows: { type: 'enabled', predefined_agents: [worker.id] },
      },
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    const log = await pollUntil(`the ${name} run reported and read`, async () => {
      const events = await history(session.id);
      return events.some((e) => e.type === 'agent.message' && textOf(e) === 'Lead read the report.') &&
        events.at(-1)?.type === 'session.status_idle'
        ? events
        : undefined;
    });
    return { session, log };
  };
  const runEvents = (log: LoggedEvent[]) => log.filter((e) => e.type.startsWith('workflow_run.'));

  it('runs a workflow whose phase starts three threads to completion', async () => {
    const plan = {
      phases: [
        {
          name: 'fan-out',
          description: 'Three at once',
          threads: ['alpha', 'beta', 'gamma'].map((m) => ({ agent: 'fan-worker', message: m })),
        },
      ],
    };
    const { session, log } = await workflowLead('fan', plan);
    const events = runEvents(log);
    const created = events[0] as unknown as BetaManagedAgentsWorkflowRunCreatedEvent;
    const runId = created.workflow_run_id;
    expect(created).toMatchObject({
      type: 'workflow_run.created',
      name: 'fan',
      description: 'Fan out',
      phases: [{ name: 'fan-out', description: 'Three at once' }],
    });
    const phaseId = created.phases[0]!.id;
    expect(events.map((e) => e.type)).toEqual([
      'workflow_run.created',
      'workflow_run.status_running',
      'workflow_run.phase_started',
      'workflow_run.phase_ended',
      'workflow_run.status_ended',
    ]);
    for (const event of events) expect(event.workflow_run_id).toBe(runId);
    const phaseStarted = events.find((e) => e.type === 'workflow_run.phase_started')!;
    expect(phaseStarted).toMatchObject({ workflow_run_phase_id: phaseId });
    expect(events.find((e) => e.type === 'workflow_run.phase_ended')).toMatchObject({
      workflow_run_phase_id: phaseId,
      phase_started_id: phaseStarted.id,
    });
    const ended = events.at(-1) as unknown as BetaManagedAgentsWorkflowRunStatusEndedEvent;
    expect(ended.result).toEqual({ type: 'completed' });

    const threads = (await threadsOf(session.id)).filter((t) => t.parent_thread_id !== null);
    expect(threads).toHaveLength(3);
    for (const thread of threads) expect(thread.workflow_run_id).toBe(runId);
    expect(log.filter((e) => e.type === 'session.thread_created').map((e) => e.workflow_run_id)).toEqual([
      runId,
      runId,
      runId,
    ]);
    // The report the lead read holds each thread's answer (the scripted worker echoes its message).
    const report = textOf(log.find((e) => e.type === 'system.message'));
    expect(report).toContain('completed');
    for (const m of ['alpha', 'beta', 'gamma']) expect(report).toContain(`You said: ${m}`);
    // Every thread answered before the run ended.
    const endedSeq = log.findIndex((e) => e.type === 'workflow_run.status_ended');
    for (const thread of threads) {
      const own = await threadLog(session.id, thread.id);
      expect(own.filter((e) => e.type === 'agent.message')).toHaveLength(1);
    }
    expect(endedSeq).toBeGreaterThan(log.findIndex((e) => e.type === 'workflow_run.phase_started'));
  }, 60_000);

  it('ends a run whose program fails with program_error', async () => {
    const plan = {
      phases: [
        { name: 'first', threads: [{ agent: 'broken-worker', message: 'one' }] },
        { name: 'second', threads: [{ agent: 'nobody', message: 'two' }] },
      ],
    };
    const { session, log } = await workflowLead('broken', plan);
    const events = runEvents(log);
    expect(events.map((e) => e.type)).toEqual([
      'workflow_run.created',
      'workflow_run.status_running',
      'workflow_run.phase_started',
      'workflow_run.phase_ended',
      'workflow_run.phase_started',
      'workflow_run.phase_ended',
      'workflow_run.error',
      'workflow_run.status_ended',
    ]);
    const error = events.find(
      (e) => e.type === 'workflow_run.error',
    ) as unknown as BetaManagedAgentsWorkflowRunErrorEvent;
    expect(error.error.type).toBe('program_error');
    expect(error.error.message).toContain('nobody');
    const ended = events.at(-1) as unknown as BetaManagedAgentsWorkflowRunStatusEndedEvent;
    expect(ended.result).toEqual({ type: 'error', error: error.error });
    // The first phase ran; the second started no thread.
    const threads = (await threadsOf(session.id)).filter((t) => t.parent_thread_id !== null);
    expect(threads).toHaveLength(1);
    expect(textOf(log.find((e) => e.type === 'system.message'))).toContain('program_error');
  }, 60_000);
});
