import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeOtlpReceiver,
  launchPlatform,
  pollUntil,
  repoRoot,
  SseClient,
  type ReceivedSpan,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

/** The agent writes a file through the Hands, then answers: one turn through all five services. */
const WRITE_THEN_ANSWER = {
  turns: [
    {
      reply: [
        {
          toolCall: {
            name: 'write',
            input: { file_path: 'notes/hello.txt', content: 'hello from the agent' },
          },
        },
        'I wrote notes/hello.txt.',
      ],
    },
  ],
};

interface Created {
  id: string;
}

/** A streamed or listed event, as far as the test reads it. */
interface LoggedEvent {
  id: string;
  content?: Array<{ text: string }>;
}

/** OTLP span kinds. */
const SPAN_KIND = { server: 2, client: 3, producer: 4, consumer: 5 } as const;

describe('walking skeleton: one turn through gateway, control, dataplane, worker and scheduler', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let otlp: FakeOtlpReceiver;

  beforeAll(async () => {
    db = await createTestDatabase();
    otlp = await FakeOtlpReceiver.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        AGENTRY_SSE_HEARTBEAT_MS: '1000',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await otlp?.stop();
    await db?.drop();
  });

  it('streams the turn in seq order, lists the same events, and leaves the file in the workdir', async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'writer',
      model: { id: 'scripted', script: WRITE_THEN_ANSWER },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status).toBe(200);
    const environment = await api.post<Created>('/v1/environments', {
      name: 'laptop',
      config: { type: 'local' },
    });
    expect(environment.status).toBe(200);
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      type: 'session',
      status: 'idle',
      agent: { id: agent.body.id, version: 1 },
    });
    const sessionId: string = session.body.id;

    const stream = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`,
      api.authHeaders,
    );
    expect(stream.status).toBe(200);
    const sent = await api.post<{ data: unknown[] }>(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'Please write the note.' }] }],
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data[0]).toMatchObject({ type: 'user.message', processed_at: null });

    const frames = await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'));
    await stream.close();
    const events = frames.map((f) => ({
      seq: Number(f.id),
      type: f.event,
      data: JSON.parse(f.data) as LoggedEvent,
    }));
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const main = events.map((e) => e.type).filter((t) => !t?.startsWith('span.') && t !== 'session.usage');
    expect(main).toEqual([
      'user.message',
      'session.status_running',
      'agent.tool_use',
      'agent.tool_result',
      'agent.message',
      'session.status_idle',
    ]);
    const toolUse = events.find((e) => e.type === 'agent.tool_use')!.data;
    expect(toolUse).toMatchObject({ name: 'write', evaluated_permission: 'allow' });
    expect(events.find((e) => e.type === 'agent.tool_result')!.data).toMatchObject({
      tool_use_id: toolUse.id,
      is_error: false,
    });
    expect(events.at(-1)!.data).toMatchObject({ stop_reason: { type: 'end_turn' } });
    expect(events.find((e) => e.type === 'agent.message')!.data.content?.[0]?.text).toBe(
      'I wrote notes/hello.txt.',
    );

    const listed = await api.get<{ data: LoggedEvent[]; next_page: string | null }>(
      `/v1/sessions/${sessionId}/events?limit=1000`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e) => e.id)).toEqual(events.map((e) => e.data.id));
    expect(listed.body.next_page).toBeNull();

    const tenants = readdirSync(platform.workdirRoot);
    const file = tenants
      .map((t) => join(platform.workdirRoot, t, sessionId, 'workspace', 'notes', 'hello.txt'))
      .find((p) => existsSync(p));
    expect(file && readFileSync(file, 'utf8')).toBe('hello from the agent');

    const after = await api.get(`/v1/sessions/${sessionId}`);
    expect(after.body).toMatchObject({ status: 'idle', stop_reason: { type: 'end_turn' } });

    // Resuming from any point replays exactly what followed it: no gap, no duplicate.
    const resumeFrom = seqs[2]!;
    const resumed = await SseClient.open(`${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`, {
      ...api.authHeaders,
      'last-event-id': String(resumeFrom),
    });
    const replay = await resumed.waitFor((f) => f.length >= seqs.length - 3);
    // Live for two heartbeats: a duplicate or a frame past the end would have arrived by then.
    await resumed.waitFor(() => resumed.comments >= 2, 10_000);
    await resumed.close();
    expect(replay.map((f) => Number(f.id))).toEqual(seqs.slice(3));
    expect(resumed.comments).toBeGreaterThanOrEqual(2);
    const viaQuery = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream?after=${seqs.at(-2)}`,
      api.authHeaders,
    );
    await viaQuery.waitFor((f) => f.length >= 1);
    await viaQuery.close();
    expect(viaQuery.frames.map((f) => Number(f.id))).toEqual([seqs.at(-1)]);
  });

  it('names the request and its tenant in the log lines it causes, across the gateway and control', async () => {
    const missing = await api.get('/v1/agents/agent_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    const runDir = join(repoRoot(), 'test-results', 'runs', platform.runId);
    const logged = (service: string) =>
      readFileSync(join(runDir, `${service}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; requestId?: string; tenantId?: string });
    const rejected = await pollUntil('the rejection in the gateway log', () =>
      logged('gateway').find((line) => line.requestId === requestId),
    );
    expect(rejected.msg).toBe('request rejected');
    expect(rejected.tenantId).toMatch(/^tenant_/);
    // Control answered the lookup: its line names the same tenant.
    expect(logged('control').some((line) => line.tenantId === rejected.tenantId)).toBe(true);
  });

  it('reports ready on every service when Postgres, Redis and NATS answer', async () => {
    for (const name of ['gateway', 'control', 'dataplane', 'worker', 'scheduler'] as const) {
      const response = await fetch(`${platform.service(name).url}/readyz`);
      expect(response.status, name).toBe(200);
      const body = (await response.json()) as { checks: Record<string, { status: string }> };
      expect(
        Object.values(body.checks).every((c) => c.status === 'ok'),
        name,
      ).toBe(true);
      expect(Object.keys(body.checks)).toContain('nats');
    }
    expect(
      Object.keys(
        ((await (await fetch(`${platform.service('dataplane').url}/readyz`)).json()) as { checks: object })
          .checks,
      ).sort(),
    ).toEqual(['nats', 'postgres', 'redis']);
  });

  it('exports traces from every service to the configured OTLP endpoint', async () => {
    const wanted = [
      'agentry-gateway',
      'agentry-control',
      'agentry-dataplane',
      'agentry-worker',
      'agentry-scheduler',
    ];
    await pollUntil(
      'spans of every service',
      () => wanted.every((s) => otlp.services().has(s)),
      20_000,
    ).catch(() => undefined);
    expect([...otlp.services()].sort()).toEqual(expect.arrayContaining(wanted));
    expect(otlp.spans.some((s) => s.service === 'agentry-gateway' && /POST|GET/.test(s.name))).toBe(true);
  });

  it('follows the user message in one trace: gateway → control → dataplane → drain job → worker tool', async () => {
    // The tool call is the far end of the chain; its ancestors lead back to the HTTP request.
    // A session's calls go to the subject of the worker it is bound to, `hands.exec.worker.<id>`.
    const isToolCall = (s: ReceivedSpan) =>
      s.service === 'agentry-worker' &&
      s.name.startsWith('hands.exec.worker.') &&
      s.kind === SPAN_KIND.server;
    const ancestry = (): ReceivedSpan[] => {
      const toolCall = otlp.spans.find(isToolCall);
      if (!toolCall) return [];
      const byId = new Map(otlp.trace(toolCall.traceId).map((s) => [s.spanId, s]));
      const chain = [toolCall];
      for (let parent = byId.get(toolCall.parentSpanId); parent; parent = byId.get(parent.parentSpanId))
        chain.push(parent);
      return chain;
    };
    await expect.poll(() => ancestry().at(-1)?.parentSpanId, { timeout: 20_000, interval: 200 }).toBe('');
    const chain = ancestry();
    const hops = chain.map(
      (s) =>
        `${s.service.replace('agentry-', '')} ${s.kind} ${s.name.replace(/^hands\.exec\.worker\..+$/, 'hands.exec.worker')}`,
    );
    expect(hops).toEqual(
      expect.arrayContaining([
        `worker ${SPAN_KIND.server} hands.exec.worker`,
        `dataplane ${SPAN_KIND.client} hands.exec.worker`,
        `dataplane ${SPAN_KIND.consumer} process session-drain`,
        `dataplane ${SPAN_KIND.producer} send session-drain`,
        `dataplane ${SPAN_KIND.server} dataplane.events.append`,
        `gateway ${SPAN_KIND.client} dataplane.events.append`,
      ]),
    );
    // ...in that order, from the tool back to the request, which is the root of the trace.
    const order = [
      'hands.exec.worker',
      'process session-drain',
      'send session-drain',
      'dataplane.events.append',
    ];
    const positions = order.map((name) => hops.findIndex((h) => h.endsWith(` ${name}`)));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const root = chain.at(-1)!;
    expect(root).toMatchObject({ service: 'agentry-gateway', kind: SPAN_KIND.server });
    expect(root.name).toMatch(/^POST/);

    // One trace through every service the request reached. (Authentication no longer asks control here:
    // the caller comes from the gateway's actor cache, filled when the session was created.)
    const services = new Set(otlp.trace(root.traceId).map((s) => s.service));
    expect([...services]).toEqual(
      expect.arrayContaining(['agentry-gateway', 'agentry-dataplane', 'agentry-worker']),
    );
  });
});
