import type { Column } from './output.js';

/** A row of a `/v1` list: the fields the columns show, each resource having some of them. */
export interface ResourceRow {
  id?: string;
  created_at?: string;
  updated_at?: string;
  name?: string;
  display_name?: string;
  title?: string | null;
  status?: string;
  version?: number;
  model?: string | { id?: string };
  config?: { type?: string };
  agent?: { id?: string };
  schedule?: { type?: string; expression?: string } | null;
}

/** A `/v1` resource the generic commands (list/get/create/update/archive) work on. */
export interface ResourceKind {
  /** Command name and `/v1` path segment. */
  name: string;
  path: string;
  singular: string;
  columns: Column<ResourceRow>[];
  /** Updates carry the current `version` (optimistic concurrency). */
  versioned?: boolean;
  /** List filters offered as flags: flag name → query parameter. */
  filters?: Record<string, string>;
}

const id: Column<ResourceRow> = { header: 'ID', value: (r) => r.id };
const created: Column<ResourceRow> = { header: 'CREATED', value: (r) => r.created_at };

export const RESOURCE_KINDS: ResourceKind[] = [
  {
    name: 'agents',
    path: '/v1/agents',
    singular: 'agent',
    versioned: true,
    columns: [
      id,
      { header: 'NAME', value: (r) => r.name },
      { header: 'MODEL', value: (r) => (typeof r.model === 'string' ? r.model : (r.model?.id ?? r.model)) },
      { header: 'VERSION', value: (r) => r.version },
      { header: 'UPDATED', value: (r) => r.updated_at },
    ],
  },
  {
    name: 'environments',
    path: '/v1/environments',
    singular: 'environment',
    columns: [
      id,
      { header: 'NAME', value: (r) => r.name },
      { header: 'TYPE', value: (r) => r.config?.type },
      created,
    ],
  },
  {
    name: 'sessions',
    path: '/v1/sessions',
    singular: 'session',
    filters: { status: 'statuses[]', agent: 'agent_id' },
    columns: [
      id,
      { header: 'STATUS', value: (r) => r.status },
      { header: 'AGENT', value: (r) => r.agent?.id },
      { header: 'TITLE', value: (r) => r.title },
      created,
    ],
  },
  {
    name: 'vaults',
    path: '/v1/vaults',
    singular: 'vault',
    columns: [id, { header: 'NAME', value: (r) => r.display_name }, created],
  },
  {
    name: 'deployments',
    path: '/v1/deployments',
    singular: 'deployment',
    filters: { agent: 'agent_id', status: 'status' },
    columns: [
      id,
      { header: 'NAME', value: (r) => r.name },
      { header: 'STATUS', value: (r) => r.status },
      { header: 'SCHEDULE', value: (r) => r.schedule?.expression ?? r.schedule?.type },
      created,
    ],
  },
];
