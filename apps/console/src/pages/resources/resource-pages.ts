/** A row of a resource list: the fields the pages show, each resource having some of them. */
export interface ResourceRow {
  id?: string;
  name?: string;
  display_name?: string;
  display_title?: string | null;
  created_at?: string;
  config?: { type?: string };
  latest_version?: string | number | null;
  filename?: string;
  size_bytes?: number;
  status?: string;
  schedule?: { type?: string; expression?: string; upcoming_runs_at?: string[] } | null;
  deployment_id?: string;
  trigger_context?: { type?: string } | null;
  session_id?: string | null;
  error?: { type?: string; message?: string } | null;
  workerId?: string;
  kind?: string;
  environmentId?: string | null;
  runningCalls?: number;
  lastHeartbeatAt?: string | null;
}

/** What a cell shows (nothing for null or undefined). */
type Cell = string | number | null | undefined;

/** A list page of one resource: where it is read, and what each column shows. */
export interface ResourcePage {
  path: string;
  title: string;
  api: string;
  empty: string;
  columns: { header: string; value: (row: ResourceRow) => Cell }[];
  /** The reply is the rows themselves (not a `{data}` page). */
  rowsOf?: (reply: unknown) => ResourceRow[];
  /** Forms for editors: fields sent as the body, to the page's API or a path made from the values. */
  forms?: {
    label: string;
    fields: { name: string; label: string; secret?: boolean }[];
    body: (v: Record<string, string>) => unknown;
    path?: (v: Record<string, string>) => string;
  }[];
  /** Where a row's first cell links to, for resources with a page of their own. */
  link?: (row: ResourceRow) => string;
  /** A per-row action for editors, e.g. a deployment's manual run. */
  action?: { label: string; path: (row: ResourceRow) => string };
}

const created = {
  header: 'Created',
  value: (r: ResourceRow) => (r.created_at ? new Date(r.created_at).toLocaleString() : ''),
};

export const RESOURCE_PAGES: ResourcePage[] = [
  {
    path: '/environments',
    title: 'Environments',
    api: '/v1/environments',
    empty: 'No environments: create one for sessions to run in.',
    columns: [
      { header: 'Name', value: (r) => r.name },
      { header: 'Type', value: (r) => r.config?.type },
      { header: 'ID', value: (r) => r.id },
      created,
    ],
    forms: [
      {
        label: 'New environment',
        fields: [
          { name: 'name', label: 'Name' },
          { name: 'type', label: 'Type (cloud, remote, local, self_hosted)' },
        ],
        body: (v) => ({ name: v.name, config: { type: v.type || 'cloud' } }),
      },
    ],
  },
  {
    path: '/vaults',
    title: 'Vaults',
    api: '/v1/vaults',
    empty: 'No vaults: they hold credentials that tools use, never shown again.',
    columns: [
      { header: 'Name', value: (r) => r.display_name },
      { header: 'ID', value: (r) => r.id },
      created,
    ],
    forms: [
      { label: 'New vault', fields: [{ name: 'display_name', label: 'Name' }], body: (v) => v },
      {
        // Write-only: the token is sent once and never shown again, here or by the API.
        label: 'Add credential',
        fields: [
          { name: 'vault', label: 'Vault ID' },
          { name: 'url', label: 'MCP server URL' },
          { name: 'token', label: 'Bearer token', secret: true },
        ],
        path: (v) => `/v1/vaults/${encodeURIComponent(v.vault ?? '')}/credentials`,
        body: (v) => ({ auth: { type: 'static_bearer', mcp_server_url: v.url, token: v.token } }),
      },
    ],
  },
  {
    path: '/memory-stores',
    title: 'Memory stores',
    api: '/v1/memory_stores',
    empty: 'No memory stores.',
    link: (r) => `/memory-stores/${r.id}`,
    columns: [{ header: 'Name', value: (r) => r.name }, { header: 'ID', value: (r) => r.id }, created],
    forms: [{ label: 'New memory store', fields: [{ name: 'name', label: 'Name' }], body: (v) => v }],
  },
  {
    path: '/skills',
    title: 'Skills',
    api: '/v1/skills',
    empty: 'No skills.',
    columns: [
      { header: 'Name', value: (r) => r.display_title ?? r.name },
      { header: 'Latest', value: (r) => r.latest_version },
      { header: 'ID', value: (r) => r.id },
      created,
    ],
  },
  {
    path: '/files',
    title: 'Files',
    api: '/v1/files',
    empty: 'No files.',
    columns: [
      { header: 'Name', value: (r) => r.filename },
      { header: 'Size', value: (r) => r.size_bytes },
      { header: 'ID', value: (r) => r.id },
      created,
    ],
  },
  {
    path: '/deployments',
    title: 'Deployments',
    api: '/v1/deployments',
    empty: 'No deployments: they run an agent on a cron schedule, a webhook or by hand.',
    columns: [
      { header: 'Name', value: (r) => r.name },
      { header: 'Status', value: (r) => r.status },
      { header: 'Schedule', value: (r) => r.schedule?.expression ?? r.schedule?.type ?? 'manual' },
      {
        header: 'Next runs',
        value: (r) =>
          (r.schedule?.upcoming_runs_at ?? [])
            .slice(0, 3)
            .map((t) => new Date(t).toLocaleString())
            .join(', '),
      },
    ],
    forms: [
      {
        label: 'New deployment',
        fields: [
          { name: 'name', label: 'Name' },
          { name: 'agent', label: 'Agent ID' },
          { name: 'environment_id', label: 'Environment ID' },
          { name: 'expression', label: 'Cron expression (empty: run by hand only)' },
          { name: 'timezone', label: 'Time zone (default UTC)' },
          { name: 'message', label: 'First message' },
        ],
        body: (v) => ({
          name: v.name,
          agent: v.agent,
          environment_id: v.environment_id,
          initial_events: [{ type: 'user.message', content: [{ type: 'text', text: v.message ?? '' }] }],
          ...(v.expression
            ? { schedule: { type: 'cron', expression: v.expression, timezone: v.timezone || 'UTC' } }
            : {}),
        }),
      },
    ],
    action: { label: 'Run now', path: (r) => `/v1/deployments/${r.id}/run` },
  },
  {
    path: '/deployment-runs',
    title: 'Deployment runs',
    api: '/v1/deployment_runs',
    empty: 'No runs yet: a deployment runs on its schedule, its webhook, or “Run now”.',
    columns: [
      { header: 'Run', value: (r) => r.id },
      { header: 'Deployment', value: (r) => r.deployment_id },
      { header: 'Trigger', value: (r) => r.trigger_context?.type },
      { header: 'Session', value: (r) => r.session_id ?? '' },
      { header: 'Error', value: (r) => r.error?.message ?? r.error?.type ?? '' },
      created,
    ],
  },
  {
    path: '/hands',
    title: 'Hands',
    api: '/v1/hands/status',
    empty: 'No workers are connected.',
    rowsOf: (reply) => (reply as { workers?: ResourceRow[] }).workers ?? [],
    columns: [
      { header: 'Worker', value: (r) => r.workerId },
      { header: 'Kind', value: (r) => r.kind },
      { header: 'Environment', value: (r) => r.environmentId },
      { header: 'Running calls', value: (r) => r.runningCalls },
      {
        header: 'Last heartbeat',
        value: (r) => (r.lastHeartbeatAt ? new Date(r.lastHeartbeatAt).toLocaleTimeString() : ''),
      },
    ],
  },
];
