import { createHash } from 'node:crypto';
import {
  ControlSubjects,
  DataplaneSubjects,
  LIMITS,
  type Actor,
  type AppendIdempotency,
  type CreateSessionRequest,
  type InboundEvent,
  type Session,
  type SessionResourceParams,
  type StoredEvent,
} from '@agentry/contracts';
import type { RpcClient } from '@agentry/platform';

/** Metadata keys that mark a session as the replay of another. */
export const REPLAY_OF_KEY = 'agentry_replay_of';
const REPLAY_ID_KEY = 'agentry_replay_id';

const PAGE = 1000;

/** Every event of a session, in order. */
export async function readLog(rpc: RpcClient, actor: Actor, sessionId: string): Promise<StoredEvent[]> {
  const log: StoredEvent[] = [];
  for (let afterSeq = 0; ;) {
    const page = await rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      afterSeq,
      limit: PAGE,
      order: 'asc',
    });
    log.push(...page.data);
    if (!page.hasMore || page.data.length === 0) return log;
    afterSeq = page.data.at(-1)!.seq;
  }
}

/**
 * Appends inbound events under a key made of the replay and the step, so a step repeated after a crash
 * (or by a second scheduler) appends them at most once.
 */
export async function appendOnce(
  rpc: RpcClient,
  actor: Actor,
  sessionId: string,
  step: string,
  events: InboundEvent[],
): Promise<void> {
  const hash = createHash('sha256').update(`session-replay:${step}`).digest('hex');
  const idempotency: AppendIdempotency = { keyHash: hash, requestHash: hash };
  await rpc.request(DataplaneSubjects.appendEvents, { actor, sessionId, events, idempotency });
}

/**
 * The create request of a replay's session: the source's environment, resources, vaults and budget, the
 * given agent version, and metadata marking it as a replay. A repository's token is never readable, so a
 * repository resource is mounted again without one.
 */
export function replaySessionRequest(
  source: Session,
  replayId: string,
  agent: { id: string; version: number },
): CreateSessionRequest {
  const marks = { [REPLAY_OF_KEY]: source.id, [REPLAY_ID_KEY]: replayId };
  const kept = Object.entries(source.metadata)
    .filter(([key]) => !(key in marks))
    .slice(0, LIMITS.metadataKeys - Object.keys(marks).length);
  return {
    agent: { type: 'agent', id: agent.id, version: agent.version },
    environment_id: source.environment_id,
    title: `Replay of ${source.id}`,
    metadata: { ...Object.fromEntries(kept), ...marks },
    resources: source.resources.map(resourceParams),
    vault_ids: source.vault_ids,
    ...(source.budget ? { budget: source.budget } : {}),
  };
}

function resourceParams(resource: Session['resources'][number]): SessionResourceParams {
  switch (resource.type) {
    case 'file':
      return { type: 'file', file_id: resource.file_id, mount_path: resource.mount_path };
    case 'memory_store':
      return {
        type: 'memory_store',
        memory_store_id: resource.memory_store_id,
        ...(resource.access ? { access: resource.access } : {}),
        ...(resource.instructions ? { instructions: resource.instructions } : {}),
      };
    case 'github_repository':
      return {
        type: 'github_repository',
        url: resource.url,
        mount_path: resource.mount_path,
        ...(resource.checkout ? { checkout: resource.checkout } : {}),
      };
  }
}

export async function createReplaySession(
  rpc: RpcClient,
  actor: Actor,
  body: CreateSessionRequest,
): Promise<string> {
  return (await rpc.request(ControlSubjects.createSession, { actor, body })).id;
}
