import { expect } from 'vitest';
import { pollFor, SERVICES, type ApiClient, type RunningPlatform, type ServiceName } from '@agentry/testing';

/** `/readyz` status of every service of the platform. */
export async function readiness(platform: RunningPlatform): Promise<Record<ServiceName, number>> {
  const entries = await Promise.all(
    SERVICES.map(async (name) => {
      const response = await fetch(`${platform.service(name).url}/readyz`).catch(() => undefined);
      return [name, response?.status ?? 0] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<ServiceName, number>;
}

/** Polls `probe` until it returns a value `accept` takes, or fails with the last value seen. */
export function waitFor<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return pollFor(what, probe, accept, timeoutMs);
}

export const allReady = (status: Record<string, number>) => Object.values(status).every((s) => s === 200);

/** Services whose process is no longer running. */
export function exited(platform: RunningPlatform): ServiceName[] {
  return SERVICES.filter((name) => !platform.service(name).running);
}

interface Created {
  id: string;
}

/** An agent on the scripted model (one reply per message) and a session of it. */
export async function openSession(api: ApiClient): Promise<string> {
  const agent = await api.post<Created>('/v1/agents', { name: 'echo', model: { id: 'scripted' } });
  expect(agent.status).toBe(200);
  const environment = await api.post<Created>('/v1/environments', {
    name: 'local',
    config: { type: 'local' },
  });
  expect(environment.status).toBe(200);
  const session = await api.post<Created>('/v1/sessions', {
    agent: agent.body.id,
    environment_id: environment.body.id,
  });
  expect(session.status).toBe(200);
  return session.body.id;
}

/** Number of agent messages of the session, or -1 while the API cannot list them. */
export async function agentMessages(api: ApiClient, sessionId: string): Promise<number> {
  const listed = await api.get<{ data: Array<{ type: string }> }>(
    `/v1/sessions/${sessionId}/events?limit=1000`,
  );
  if (listed.status !== 200) return -1;
  return listed.body.data.filter((e) => e.type === 'agent.message').length;
}

/** Sends a message (retrying while the API is unavailable) and waits until the turn's answer is in the log. */
export async function completeTurn(
  api: ApiClient,
  sessionId: string,
  text: string,
  timeoutMs: number,
): Promise<void> {
  const before = await waitFor(
    () => agentMessages(api, sessionId),
    (n) => n >= 0,
    timeoutMs,
    'event list',
  );
  await waitFor(
    () =>
      api.post(`/v1/sessions/${sessionId}/events`, {
        events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
      }),
    (r) => r.status === 200,
    timeoutMs,
    'posting a message',
  );
  await waitFor(
    () => agentMessages(api, sessionId),
    (n) => n > before,
    timeoutMs,
    `answer to "${text}"`,
  );
  await waitFor(
    // While a backing service is down the body may be an error or empty.
    async () => (await api.get<{ status?: string } | null>(`/v1/sessions/${sessionId}`)).body?.status,
    (s) => s === 'idle',
    timeoutMs,
    'session status',
  );
}
