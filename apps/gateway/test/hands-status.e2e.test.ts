import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import type { Created, SessionState } from './wire-types.js';

/** One worker of the Hands status, cluster or self-hosted. */
interface HandsWorker {
  kind: string;
  workerId?: string;
  environmentId: string | null;
  lastHeartbeatAt: number;
  capacity: { cpus: number; freeMemoryBytes: number } | null;
  runningCalls: number | null;
  liveSandboxes: string[] | null;
}

interface HandsStatus {
  workers: HandsWorker[];
  workerHeartbeats: Record<string, number>;
}

const HEARTBEAT_MS = 1_000;

describe('Hands status: cluster workers and self-hosted workers, on /api and /v1 alike', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_HANDS_STATUS_INTERVAL_MS: String(HEARTBEAT_MS) },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    dir = mkdtempSync(join(tmpdir(), 'agentry-hands-status-'));
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const statusOf = async (path: string): Promise<HandsStatus> => {
    const reply = await api.get<HandsStatus>(path);
    expect(reply.status).toBe(200);
    return reply.body;
  };

  it('shows the cluster worker with its capacity and the sandbox it holds, and the self-hosted worker that polls', async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'status probe',
      model: {
        id: 'scripted',
        script: { turns: [{ reply: [{ toolCall: { name: 'bash', input: { command: 'true' } } }, 'done'] }] },
      },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const cloud = await api.post<Created>('/v1/environments', { name: 'cloud', config: { type: 'cloud' } });
    const session = await api.post<Created & { created_at: string }>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: cloud.body.id,
    });
    await api.post(`/v1/sessions/${session.body.id}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    await pollUntil('the bash turn to end', async () => {
      const s = await api.get<SessionState & { stop_reason?: { type: string } }>(
        `/v1/sessions/${session.body.id}`,
      );
      return s.body.status === 'idle' && s.body.stop_reason?.type === 'end_turn';
    });

    const laptop = await api.post<Created>('/v1/environments', {
      name: 'laptop',
      config: { type: 'self_hosted' },
    });
    const key = (await api.post<{ key: string }>(`/v1/environments/${laptop.body.id}/keys`, {})).body.key;
    const stopWorker = new AbortController();
    const workerClient = new Anthropic({
      baseURL: platform.gatewayUrl,
      apiKey: null,
      authToken: key,
      maxRetries: 0,
      logLevel: 'off',
    });
    const running = workerClient.beta.environments.work
      .worker({ environmentId: laptop.body.id, environmentKey: key, workdir: dir, workerId: 'laptop-1' })
      .run(stopWorker.signal)
      .catch((error: unknown) => error);

    try {
      for (const path of ['/api/hands/status', '/v1/hands/status']) {
        const status = await pollUntil(`${path} to show both kinds of Hands`, async () => {
          const body = await statusOf(path);
          const workers = body.workers;
          // A report is up to one heartbeat old: wait for one made after the bash call ended.
          const settled = workers.some(
            (w) => w.kind === 'cluster' && w.runningCalls === 0 && w.liveSandboxes?.includes(session.body.id),
          );
          return settled && workers.some((w) => w.kind === 'self_hosted') ? body : undefined;
        });
        const cluster = status.workers.filter((w) => w.kind === 'cluster');
        expect(cluster).toHaveLength(1);
        expect(cluster[0]).toMatchObject({
          environmentId: null,
          runningCalls: 0,
          liveSandboxes: [session.body.id],
        });
        expect(cluster[0]!.capacity?.cpus).toBeGreaterThan(0);
        expect(cluster[0]!.capacity?.freeMemoryBytes).toBeGreaterThan(0);
        // A live report: made after the session it names was created.
        expect(cluster[0]!.lastHeartbeatAt).toBeGreaterThanOrEqual(Date.parse(session.body.created_at));
        const selfHosted = status.workers.filter((w) => w.kind === 'self_hosted');
        expect(selfHosted).toHaveLength(1);
        const { lastHeartbeatAt, ...selfHostedRest } = selfHosted[0]!;
        expect(lastHeartbeatAt).toEqual(expect.any(Number));
        expect(selfHostedRest).toEqual({
          kind: 'self_hosted',
          workerId: 'laptop-1',
          environmentId: laptop.body.id,
          capacity: null,
          runningCalls: null,
          liveSandboxes: null,
        });
        expect(status.workerHeartbeats['laptop-1']).toBe(selfHosted[0]!.lastHeartbeatAt);
      }
    } finally {
      stopWorker.abort();
      await running;
    }
  });

  it("another tenant's namespace sees the cluster worker but not this tenant's sandboxes", async () => {
    const other = await api.post('/v1/tenants', {
      name: 'Globex',
      slug: 'globex',
      admin: { username: 'hank', password: 'hank-pass-1' },
    });
    expect(other.status).toBe(200);
    const outsider = await new ApiClient(platform.gatewayUrl).login('hank', 'hank-pass-1');
    const body = (await outsider.get<HandsStatus>('/v1/hands/status')).body;
    const cluster = body.workers.filter((w) => w.kind === 'cluster');
    expect(cluster).toHaveLength(1);
    expect(cluster[0]!.liveSandboxes).toEqual([]);
    expect(body.workers.some((w) => w.kind === 'self_hosted')).toBe(false);
  });

  it('drops a cluster worker killed with SIGKILL once its heartbeat expires', async () => {
    await platform.service('worker').kill('SIGKILL');
    // Within three heartbeats of TTL, plus a beat of slack for a slow machine.
    await pollUntil(
      'the dead worker to leave the status',
      async () => {
        const body = await statusOf('/v1/hands/status');
        return body.workers.every((w) => w.kind !== 'cluster');
      },
      HEARTBEAT_MS * 4 + 5_000,
    );
  });
});
