import type { Operation } from './route-catalog.js';
import type { FixtureKey, Fixtures } from './route-params.js';

/**
 * A valid body for every operation that needs one, so a refusal is about who calls, never about
 * what was sent. Operations not listed send `{}` when they take a JSON body, else nothing.
 */
interface BodySpec {
  body: (ids: Fixtures) => unknown;
  /** Namespaced resources the body names: another namespace's must answer 404 too. */
  refers?: FixtureKey[];
}

const text = (value: string) => [{ type: 'text', text: value }];
const AGENT = { name: 'matrix', model: 'scripted' };
const RENAMED = { name: 'matrix-renamed' };
// A public address literal: it passes the egress guard with no DNS, and nothing ever answers there.
const WEBHOOK = { url: 'https://192.0.2.10/matrix', enabled_events: ['deployment.paused'] };
const TENANT = {
  name: 'Intruders',
  slug: 'intruders',
  admin: { username: 'intruder-admin', password: 'intruder-pass' },
};

export function skillFolder(description: string): FormData {
  const form = new FormData();
  const skill = `---\nname: matrix-skill\ndescription: ${description}\n---\n# Steps\n`;
  form.append('files[]', new File([skill], 'matrix-skill/SKILL.md', { type: 'text/markdown' }));
  return form;
}

export function csvFile(): FormData {
  const form = new FormData();
  form.append('file', new File(['id,total\n1,42\n'], 'totals.csv', { type: 'text/csv' }));
  return form;
}

const fixed = (value: unknown): BodySpec => ({ body: () => value });

const BODIES: Record<string, BodySpec> = {
  'POST /api/admin/namespaces': fixed({ name: 'Intruders', slug: 'intruders' }),
  'POST /api/admin/namespaces/{id}/members': { body: (i) => ({ userId: i.user, role: 'member' }) },
  'PATCH /api/admin/namespaces/{id}/members/{userId}': fixed({ role: 'member' }),
  'POST /api/admin/tenants': fixed(TENANT),
  'POST /v1/tenants': fixed(TENANT),
  'POST /api/admin/users': fixed({ username: 'intruder', password: 'intruder-pass' }),
  'PATCH /api/admin/users/{id}': fixed({ role: 'admin' }),
  'POST /api/auth/password': fixed({ currentPassword: 'wrong-password', newPassword: 'irrelevant-1' }),
  'POST /api/keys': fixed({ name: 'matrix-key', permissions: ['read'] }),
  'POST /api/agents': fixed(AGENT),
  'PUT /api/agents/{id}': fixed(RENAMED),
  'PUT /api/agents/{id}/workspace/file': fixed({ path: 'knowledge/matrix.md', content: 'matrix' }),
  'POST /api/agents/{id}/workspace/file/move': fixed({ from: 'AGENTS.md', to: 'MOVED.md' }),
  'PUT /api/agents/{id}/skills/workspace/{name}': fixed({
    markdown: '---\nname: fixture-item\ndescription: Changed by the matrix\n---\n',
  }),
  'PUT /api/agents/{id}/workspace/subagents/{name}': fixed({
    description: 'Changed by the matrix',
    inlineBody: 'matrix',
  }),
  'POST /api/agents/{id}/shares': { body: (i) => ({ granteeType: 'user', granteeId: i.user, tier: 'RUN' }) },
  'POST /api/environments': fixed({ name: 'matrix-env', type: 'local' }),
  'PATCH /api/environments/{id}': fixed(RENAMED),
  'POST /api/memory-stores': fixed({ name: 'matrix-store' }),
  'PATCH /api/memory-stores/{id}': fixed(RENAMED),
  'POST /api/vaults': fixed({ displayName: 'matrix-vault' }),
  'POST /api/vaults/{id}/credentials': fixed({
    type: 'static_bearer',
    target: 'https://mcp.matrix.test/sse',
    secret: 'matrix-token',
  }),
  'PUT /api/memory-stores/{id}/memories/{path}': fixed({ content: 'changed' }),
  'POST /api/memory-stores/{id}/redact': fixed({ path: 'fixture/notes.md' }),
  'POST /api/files': fixed({ filename: 'matrix.txt', content: 'matrix' }),
  'PATCH /api/vaults/{id}': fixed({ displayName: 'matrix-renamed' }),
  'POST /api/sessions': {
    body: (i) => ({ agent: i.agent, environmentId: i.environment }),
    refers: ['agent', 'environment'],
  },
  'PATCH /api/sessions/{id}': fixed({ title: 'matrix-renamed' }),
  'POST /api/sessions/{id}/fork': fixed({ checkpoint: 'ckpt_matrix' }),
  'POST /api/sessions/{id}/replay': {
    body: (i) => ({ agent: { id: i.agent, version: 1 } }),
    refers: ['agent'],
  },
  'POST /api/agents/{id}/replays': fixed({ version: 1, last: 1 }),
  'POST /api/sessions/{id}/rollback': fixed({ checkpoint: 'ckpt_matrix' }),
  'POST /api/sessions/{id}/events': fixed({ events: [{ type: 'user.message', payload: { text: 'hi' } }] }),
  'POST /api/deployments': {
    body: (i) => ({
      name: 'matrix-deployment',
      agentId: i.agent,
      environmentId: i.environment,
      triggerType: 'manual',
    }),
    refers: ['agent', 'environment'],
  },
  'PATCH /api/deployments/{id}': fixed(RENAMED),
  'POST /api/deployments/{id}/run': fixed({ text: 'go' }),
  'POST /api/multiagent/run': {
    body: (i) => ({ agentIds: [i.agent], message: 'hi', environmentId: i.environment }),
    refers: ['agent', 'environment'],
  },
  'POST /v1/agents': fixed(AGENT),
  'POST /v1/agents/{id}': fixed(RENAMED),
  'POST /v1/environments': fixed({ name: 'matrix-env', config: { type: 'local' } }),
  'POST /v1/environments/{id}': fixed(RENAMED),
  'POST /v1/sessions': {
    body: (i) => ({ agent: i.agent, environment_id: i.environment }),
    refers: ['agent', 'environment'],
  },
  'POST /v1/sessions/{id}': fixed({ title: 'matrix-renamed' }),
  'POST /v1/sessions/{id}/fork': fixed({ checkpoint: 'ckpt_matrix' }),
  'POST /v1/sessions/{id}/replay': {
    body: (i) => ({ agent: { id: i.agent, version: 1 } }),
    refers: ['agent'],
  },
  'POST /v1/agents/{id}/replays': fixed({ version: 1, last: 1 }),
  'POST /v1/sessions/{id}/rollback': fixed({ checkpoint: 'ckpt_matrix' }),
  'POST /v1/sessions/{id}/events': fixed({ events: [{ type: 'user.message', content: text('hi') }] }),
  'POST /v1/sessions/{sessionId}/resources': {
    // Each call mounts at its own path, since two resources may not share one.
    body: (i) => ({
      type: 'file',
      file_id: i.file,
      mount_path: `/matrix/${Math.random().toString(36).slice(2)}`,
    }),
    refers: ['file'],
  },
  'POST /v1/sessions/{sessionId}/resources/{id}': fixed({ authorization_token: 'matrix-rotated-token' }),
  'POST /v1/vaults': fixed({ display_name: 'matrix-vault' }),
  'POST /v1/vaults/{id}': fixed({ display_name: 'matrix-renamed' }),
  'POST /v1/vaults/{vaultId}/credentials': fixed({
    auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.matrix.test/sse', token: 'matrix-token' },
  }),
  'POST /v1/vaults/{vaultId}/credentials/{id}': fixed({ display_name: 'matrix-renamed' }),
  'POST /v1/memory_stores': fixed({ name: 'matrix-store' }),
  'POST /v1/dreams': {
    body: (i) => ({ inputs: [{ type: 'memory_store', memory_store_id: i.memoryStore }], model: 'scripted' }),
    refers: ['memoryStore'],
  },
  'POST /v1/memory_stores/{id}': fixed(RENAMED),
  'POST /v1/memory_stores/{storeId}/memories': fixed({ path: '/matrix/new.md', content: 'new' }),
  'POST /v1/memory_stores/{storeId}/memories/{id}': fixed({ content: 'changed' }),
  'POST /v1/deployments': {
    body: (i) => ({
      name: 'matrix-deployment',
      agent: i.agent,
      environment_id: i.environment,
      initial_events: [{ type: 'user.message', content: text('go') }],
    }),
    refers: ['agent', 'environment'],
  },
  'POST /v1/deployments/{id}': fixed(RENAMED),
  'POST /v1/files': { body: csvFile },
  'POST /v1/webhooks': fixed(WEBHOOK),
  'POST /api/webhooks': fixed(WEBHOOK),
  'POST /v1/skills': { body: () => skillFolder('Made by the matrix') },
  'POST /v1/skills/{id}/versions': { body: () => skillFolder('A newer version') },
};

/** The body to send, or undefined for none. */
export function bodyFor(operation: Operation, ids: Fixtures): unknown {
  const spec = BODIES[operation.label];
  if (spec) return spec.body(ids);
  return operation.requiredBody ? {} : undefined;
}

export function bodyRefers(operation: Operation): FixtureKey[] {
  return BODIES[operation.label]?.refers ?? [];
}

/** Why `{}` will not do for this operation, when its body has required fields nobody listed here. */
export function missingBody(operation: Operation): string | null {
  if (BODIES[operation.label] || !operation.requiredBody?.length) return null;
  return `needs a body with ${operation.requiredBody.join(', ')} in route-bodies.ts`;
}
