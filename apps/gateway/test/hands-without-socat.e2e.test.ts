import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn } from './outage-fixture.js';
import type { Created, Page, SessionEvent } from './wire-types.js';

/**
 * A worker on a machine without socat (hidden from its PATH), its sandboxes on the host's own /usr: it says
 * so when it starts, and a call that needs the network answers why instead of running without it.
 */
describe('the Hands without socat', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let bin: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // A PATH holding what the services use (node's own path is absolute) but no socat.
    bin = await mkdtemp(join(tmpdir(), 'no-socat-'));
    for (const tool of ['sh', 'bash', 'mount', 'umount', 'cp'])
      await symlink(`/bin/${tool}`, join(bin, tool));
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_USERLAND: 'host', PATH: bin },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    await rm(bin, { recursive: true, force: true });
  });

  it('names socat when the worker starts', async () => {
    const log = await readFile(
      join(repoRoot(), 'test-results', 'runs', platform.runId, 'worker.log'),
      'utf8',
    );
    expect(log).toContain('the Hands need the system package socat');
  });

  it('answers a bash call of a limited environment with a tool error naming the missing piece', async () => {
    const environment = await api.post<Created>('/v1/environments', {
      name: 'limited',
      config: { type: 'cloud', networking: { type: 'limited', allowed_hosts: ['example.com'] } },
    });
    const script = {
      turns: [{ reply: [{ toolCall: { name: 'bash', input: { command: 'echo ran' } } }, 'done'] }],
    };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'no socat',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    await completeTurn(api, session.body.id, 'go', 60_000);
    const events = (await api.get<Page<SessionEvent>>(`/v1/sessions/${session.body.id}/events?limit=100`))
      .body.data;
    const result = events.find((e) => e.type === 'agent.tool_result')!;
    expect(result.is_error).toBe(true);
    const text = (result.content ?? []).map((c) => c.text).join('');
    expect(text).toContain('socat');
    expect(text).toContain('the call did not run');
    expect(text).not.toMatch(/^ran$/m);
  });
});
