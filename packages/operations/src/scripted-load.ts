import { ApiClient, SseClient } from '@agentry/testing';

/** What a create answers with that the load reads: the new resource's id. */
interface Created {
  id: string;
}

/** The agent writes a file through the Hands, reads a missing one (an error result), then answers. */
const SCRIPT = {
  turns: [
    {
      reply: [
        { toolCall: { name: 'write', input: { file_path: 'notes/load.txt', content: 'load' } } },
        { toolCall: { name: 'read', input: { file_path: 'missing/nothing.txt' } } },
        'Done.',
      ],
    },
  ],
};

/**
 * A short load that touches every instrumented path: HTTP routes (ok, 404), event streams, turns with
 * model calls and tool calls (ok and error) on the worker, drain jobs and NATS requests.
 */
export async function runScriptedLoad(gatewayUrl: string, sessions = 3): Promise<void> {
  const api = await new ApiClient(gatewayUrl).login('admin', 'admin');
  const agent = await api.post<Created>('/v1/agents', {
    name: 'load',
    model: { id: 'scripted', script: SCRIPT },
    tools: [{ type: 'agent_toolset_20260401' }],
  });
  const environment = await api.post<Created>('/v1/environments', {
    name: 'load',
    config: { type: 'local' },
  });
  if (agent.status !== 200 || environment.status !== 200) throw new Error('load setup failed');
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const session = await api.post<Created>('/v1/sessions', {
        agent: agent.body.id,
        environment_id: environment.body.id,
      });
      const id = session.body.id;
      const stream = await SseClient.open(`${gatewayUrl}/v1/sessions/${id}/events/stream`, api.authHeaders);
      await api.post(`/v1/sessions/${id}/events`, {
        events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
      });
      await stream.waitFor((frames) => frames.some((f) => f.event === 'session.status_idle'));
      await stream.close();
      await api.get(`/v1/sessions/${id}/events?limit=100`);
    }),
  );
  await api.get('/v1/sessions/sesn_does_not_exist');
  await api.get('/v1/agents?limit=5');
}
