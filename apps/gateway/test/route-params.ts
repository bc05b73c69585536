/** What a path parameter stands for, and how a path is filled from one set of fixtures. */

export type FixtureKey =
  | 'agent'
  | 'agentVersion'
  | 'environment'
  | 'cloudEnvironment'
  | 'environmentKey'
  | 'session'
  | 'thread'
  | 'threadSession'
  | 'sessionResource'
  | 'event'
  | 'vault'
  | 'credential'
  | 'memoryStore'
  | 'memory'
  | 'memoryVersion'
  | 'memoryPath'
  | 'dream'
  | 'skill'
  | 'skillVersion'
  | 'file'
  | 'deployment'
  | 'deploymentRun'
  | 'multiagentRun'
  | 'replay'
  | 'replayBatch'
  | 'workItem'
  | 'apiKey'
  | 'user'
  | 'granteeType'
  | 'namespace'
  | 'tenant'
  | 'webhookToken'
  | 'webhook'
  | 'webhookDelivery'
  | 'workspaceItem';

/** One namespace's worth of resources (or, for `user` and `apiKey`, one user's). */
export type Fixtures = Partial<Record<FixtureKey, string>>;

/** Parameters that are not a resource of a namespace: the same value is fine in any. */
const SHARED: ReadonlySet<FixtureKey> = new Set([
  'agentVersion',
  'granteeType',
  // A memory's path inside its store; the store in the same path is what is namespaced.
  'memoryPath',
  'user',
  'tenant',
  'webhookToken',
  // A skill or sub-agent name inside an agent's workspace; the agent in the same path is what is namespaced.
  'workspaceItem',
]);

const BY_COLLECTION: Record<string, FixtureKey> = {
  agents: 'agent',
  environments: 'environment',
  sessions: 'session',
  threads: 'thread',
  resources: 'sessionResource',
  events: 'event',
  vaults: 'vault',
  credentials: 'credential',
  memory_stores: 'memoryStore',
  'memory-stores': 'memoryStore',
  memories: 'memory',
  memory_versions: 'memoryVersion',
  dreams: 'dream',
  skills: 'skill',
  files: 'file',
  deployments: 'deployment',
  deployment_runs: 'deploymentRun',
  runs: 'multiagentRun',
  replays: 'replay',
  replay_batches: 'replayBatch',
  'replay-batches': 'replayBatch',
  work: 'workItem',
  users: 'user',
  members: 'user',
  namespaces: 'namespace',
  tenants: 'tenant',
  webhook: 'webhookToken',
  webhooks: 'webhook',
  deliveries: 'webhookDelivery',
};

/** Collections whose items depend on the collection above them (`<parent>/<collection>`). */
const BY_PARENT: Record<string, FixtureKey> = {
  'agents/versions': 'agentVersion',
  'skills/versions': 'skillVersion',
  'environments/keys': 'environmentKey',
  'api/keys': 'apiKey',
  'skills/workspace': 'workspaceItem',
  'workspace/subagents': 'workspaceItem',
};

const BY_NAME: Record<string, FixtureKey> = {
  granteeType: 'granteeType',
  granteeId: 'user',
  path: 'memoryPath',
};

const isParam = (segment: string | undefined) => segment !== undefined && /^\{\w+\}$/.test(segment);

export interface PathParam {
  name: string;
  fixture: FixtureKey | undefined;
}

/** Each `{param}` of a path with the fixture it stands for (undefined: nothing known fills it). */
export function pathParams(path: string): PathParam[] {
  const segments = path.split('/');
  return segments.flatMap((segment, i) => {
    if (!isParam(segment)) return [];
    const name = segment.slice(1, -1);
    const collection = segments[i - 1];
    const parent = isParam(segments[i - 2]) ? segments[i - 3] : segments[i - 2];
    // A thread lives in the coordinator's session that delegated it, not in the fixture session.
    const threadOwner =
      collection === 'sessions' && segments[i + 1] === 'threads' && isParam(segments[i + 2])
        ? 'threadSession'
        : undefined;
    // Only a cloud environment has an image build; the fixture environment is self-hosted.
    const cloudOnly =
      collection === 'environments' && segments[i + 1] === 'build' ? 'cloudEnvironment' : undefined;
    const fixture =
      threadOwner ??
      cloudOnly ??
      BY_NAME[name] ??
      BY_PARENT[`${parent}/${collection}`] ??
      (collection ? BY_COLLECTION[collection] : undefined);
    return [{ name, fixture }];
  });
}

/** Why a path cannot be filled from these fixtures, or null when it can. */
export function unfillable(path: string, fixtures: Fixtures): string | null {
  const missing = pathParams(path).filter((p) => !p.fixture || fixtures[p.fixture] === undefined);
  if (missing.length === 0) return null;
  return missing
    .map((p) =>
      p.fixture ? `{${p.name}} needs a "${p.fixture}" fixture` : `{${p.name}} has no known fixture`,
    )
    .join(', ');
}

export function fillPath(path: string, fixtures: Fixtures): string {
  const params = pathParams(path);
  let index = 0;
  return path.replace(/\{\w+\}/g, () => encodeURIComponent(fixtures[params[index++]!.fixture!]!));
}

export const isNamespaced = (key: FixtureKey) => !SHARED.has(key);

/** Namespaced resources a path addresses; calling it with another namespace's must answer 404. */
export function scopedParams(path: string): FixtureKey[] {
  return pathParams(path).flatMap((p) => (p.fixture && isNamespaced(p.fixture) ? [p.fixture] : []));
}
