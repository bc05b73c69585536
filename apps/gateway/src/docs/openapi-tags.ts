import type { JsonSchema } from './zod-json-schema.js';

/** The tag of an operation: its surface and resource, `v1/agents`, `api/sessions`; `healthz` for probes. */
export function tagOf(path: string): string {
  const [surface = '', resource] = path.split('/').filter(Boolean);
  return resource && (surface === 'v1' || surface === 'api') ? `${surface}/${resource}` : surface;
}

const V1: Record<string, string> = {
  agents: 'Agents: versioned definitions (prompt, model, tools, MCP servers, skills, sub-agents).',
  environments: 'Environments: where tools run, their worker keys and, for self-hosted ones, the work queue.',
  sessions: 'Sessions: the event log, the live stream (SSE), threads and mounted resources.',
  vaults: 'Vaults and their credentials (write-only secrets).',
  memory_stores: 'Memory stores, their memories and versions.',
  dreams: 'Dreams: jobs that rewrite a memory store as new memory versions.',
  skills: 'Skills and their versions (Agentry extension).',
  files: 'Files (upload, metadata, content).',
  deployments: 'Deployments: cron, webhook or manual runs of an agent (Agentry extension).',
  deployment_runs: 'Runs of deployments (Agentry extension).',
  hands: 'Hands: the live workers and sandboxes (Agentry extension).',
  usage: 'Usage per agent and day from the usage ledger (Agentry extension).',
  tenants: 'Tenants (administrators only).',
  webhooks: 'Webhook endpoints, their delivery log and redelivery (Agentry extension).',
  replays: 'Replays of recorded sessions against another agent version (Agentry extension).',
  replay_batches: "Batches of replays of an agent's last sessions (Agentry extension).",
};

const API: Record<string, string> = {
  auth: 'Sign in, sign out and change a password.',
  keys: "The caller's API keys.",
  admin: 'Users, namespaces, tenants and the audit log (administrators).',
  namespaces: 'The namespaces the caller belongs to.',
  agents: 'Agents with toolsets, workspaces and shares.',
  environments: 'Environments, keys and the worker routes (X-Builder-Environment-Key).',
  sessions: 'Sessions and their events.',
  vaults: 'Vaults and credentials.',
  'memory-stores': 'Memory stores and memories.',
  files: 'Files.',
  deployments: 'Deployments, runs and webhooks.',
  multiagent: 'Multi-agent runs.',
  hands: 'Hands status.',
  webhooks: 'Webhook endpoints and their delivery log.',
  replays: 'Session replays.',
  'replay-batches': 'Batches of session replays.',
};

const PLATFORM: Record<string, string> = {
  docs: 'This reference.',
  healthz: 'Liveness probe.',
  readyz: 'Readiness probe.',
  metrics: 'Prometheus metrics.',
};

const tags = (prefix: string, descriptions: Record<string, string>): JsonSchema[] =>
  Object.entries(descriptions).map(([name, description]) => ({
    name: prefix ? `${prefix}/${name}` : name,
    description,
  }));

/** Every tag with what it groups; the reference shows them in this order. */
export const OPENAPI_TAGS: JsonSchema[] = [...tags('v1', V1), ...tags('api', API), ...tags('', PLATFORM)];

/** The two surfaces and the platform's own routes, as groups of tags (`x-tagGroups`). */
export const TAG_GROUPS: JsonSchema[] = [
  { name: '/v1 — Claude Managed Agents', tags: Object.keys(V1).map((t) => `v1/${t}`) },
  { name: '/api — AgentScope', tags: Object.keys(API).map((t) => `api/${t}`) },
  { name: 'Platform', tags: Object.keys(PLATFORM) },
];
