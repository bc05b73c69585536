import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@agentry/testing';

/**
 * Every operation of the committed OpenAPI document, with who may call it. The access of an
 * operation follows from its method and path; the few that differ are listed in RULES by name.
 */

/**
 * `read`: anyone signed in to the namespace. `write`: viewers and read-only keys are refused (403).
 * `admin`: only an administrator user; members, viewers and any API key are refused (403).
 * `account`: the caller's own account; any signed-in user, never an API key (403).
 * `worker`: a self-hosted worker's environment key or per-item sessions token, not user credentials.
 * `public`: no credentials at all.
 */
export type Access = 'public' | 'read' | 'write' | 'admin' | 'account' | 'worker';

export interface Operation {
  method: string;
  path: string;
  /** `METHOD /path/{param}`, as reports name it. */
  label: string;
  /** The JSON body's required fields, when the operation takes a JSON body. */
  requiredBody: string[] | null;
}

interface Rule {
  match: RegExp;
  access: Access;
}

const V1_RESOURCES =
  'agents|environments|sessions|vaults|memory_stores|dreams|skills|files|deployments|deployment_runs|usage|hands|webhooks|replays|replay_batches';
const API_RESOURCES =
  'agents|environments|sessions|vaults|memory-stores|files|deployments|multiagent|hands|webhooks|replays|replay-batches';
const RESOURCE = `/(?:v1/(?:${V1_RESOURCES})|api/(?:${API_RESOURCES}))(?:/|$)`;
const WORK_ITEM = '/(?:v1|api)/environments/\\{\\w+\\}/work';

/** First match wins; matched against `METHOD /path`. An operation no rule matches is unclassified. */
const RULES: Rule[] = [
  // Public: sign-in, probes, the documentation, and webhooks whose path token is the secret.
  { match: /^POST \/api\/auth\/login$/, access: 'public' },
  { match: /^GET \/(?:healthz|readyz|metrics|docs|docs\/openapi\.json)$/, access: 'public' },
  { match: /^POST \/.*\/webhook\/\{\w+\}$/, access: 'public' },
  // Self-service: the caller's own password and API keys.
  { match: /^\w+ \/api\/(?:auth|keys)(?:\/|$)/, access: 'account' },
  // Tenant administration.
  { match: /^\w+ \/api\/admin(?:\/|$)/, access: 'admin' },
  { match: /^\w+ \/v1\/tenants(?:\/|$)/, access: 'admin' },
  { match: /^(?:POST|PUT|PATCH|DELETE) \/api\/namespaces(?:\/|$)/, access: 'admin' },
  { match: /^GET \/api\/namespaces(?:\/|$)/, access: 'read' },
  // Self-hosted workers: claim and drive work items, and the session calls made inside one.
  { match: new RegExp(`^GET ${WORK_ITEM}/poll$`), access: 'worker' },
  { match: new RegExp(`^POST ${WORK_ITEM}/\\{\\w+\\}(?:/(?:ack|heartbeat|stop))?$`), access: 'worker' },
  { match: /^\w+ \/api\/environments\/\{\w+\}\/sessions\/\{\w+\}\//, access: 'worker' },
  // Convention for every tenant resource: reads read, everything else writes.
  { match: new RegExp(`^(?:GET|HEAD) ${RESOURCE}`), access: 'read' },
  { match: new RegExp(`^(?:POST|PUT|PATCH|DELETE) ${RESOURCE}`), access: 'write' },
];

export function classify(operation: Pick<Operation, 'label'>): Access | undefined {
  return RULES.find((rule) => rule.match.test(operation.label))?.access;
}

/** The parts of `docs/openapi.json` the catalog reads. */
interface Schema {
  $ref?: string;
  required?: string[];
}

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Schema> };
}

/** The operations of `docs/openapi.json`, as committed (the drift test keeps it equal to the code). */
export function loadOperations(): Operation[] {
  const document = JSON.parse(
    readFileSync(join(repoRoot(), 'docs', 'openapi.json'), 'utf8'),
  ) as OpenApiDocument;
  const resolve = (schema: Schema): Schema => {
    const ref =
      typeof schema.$ref === 'string' ? /#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
    return ref ? (document.components.schemas[ref] as Schema) : schema;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const json = op.requestBody?.content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        label: `${method.toUpperCase()} ${path}`,
        requiredBody: json ? (resolve(json).required ?? []) : null,
      };
    }),
  );
}
