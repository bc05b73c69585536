import { z } from 'zod';
import { rpcSubject, V1 } from '../nats/subject.js';

/**
 * Upkeep the scheduler times and the dataplane performs: the tables it sweeps (session events, work items)
 * belong to the dataplane, so the scheduler asks rather than writes.
 */
const ReclaimedWorkSchema = z.object({
  id: z.string(),
  environmentId: z.string(),
  sessionId: z.string(),
  state: z.enum(['queued', 'stopped']),
});

const DreamMemorySchema = z.object({ path: z.string(), content: z.string() });

export const UpkeepSubjects = {
  /** Deletes the logs of up to `limit` sessions archived or terminated before `cutoff`. */
  purgeEndedLogs: rpcSubject(
    'dataplane.upkeep.purge-ended-logs',
    z.object({ v: V1, cutoff: z.iso.datetime({ offset: true }), limit: z.number().int().positive() }),
    z.object({ sessionIds: z.array(z.string()), events: z.number().int().nonnegative() }),
  ),
  /**
   * Deletes up to `limit` sessions archived before `cutoff` and not touched since (row, log, threads);
   * never one with a turn running or input pending. Returns what was deleted, for the workers to drop.
   */
  purgeArchivedSessions: rpcSubject(
    'dataplane.upkeep.purge-archived-sessions',
    z.object({ v: V1, cutoff: z.iso.datetime({ offset: true }), limit: z.number().int().positive() }),
    z.object({ sessions: z.array(z.object({ id: z.string(), tenantId: z.string() })) }),
  ),
  /** Agents whose shared workspace holds daily memory ledgers (`memory/YYYY-MM-DD.md`), after `afterId`. */
  listAgentsWithMemory: rpcSubject(
    'dataplane.upkeep.list-agents-with-memory',
    z.object({ v: V1, afterId: z.string().nullable(), limit: z.number().int().positive() }),
    z.object({ agents: z.array(z.object({ tenantId: z.string(), agentId: z.string() })) }),
  ),
  /**
   * Merges what an agent's daily ledgers gained into its MEMORY.md with one call of the agent's model (at
   * most once per `minIntervalMs`), and deletes ledgers older than `keepDays` when that is set.
   */
  maintainAgentMemory: rpcSubject(
    'dataplane.upkeep.maintain-agent-memory',
    z.object({
      v: V1,
      tenantId: z.string().min(1),
      agentId: z.string().min(1),
      consolidate: z.object({ minIntervalMs: z.number().int().nonnegative() }).nullable(),
      prune: z.object({ keepDays: z.number().int().positive() }).nullable(),
    }),
    z.object({
      consolidation: z.string().nullable(),
      pruned: z.array(z.string()),
    }),
  ),
  /**
   * One dream's model call: the store's memories (and the named sessions' messages) in, the reorganized
   * store out, with the tokens it took. The dataplane runs the models; control writes the memories.
   */
  dreamMemories: rpcSubject(
    'dataplane.upkeep.dream-memories',
    z.object({
      v: V1,
      tenantId: z.string().min(1),
      /** Whose usage the call is metered against. */
      namespaceId: z.string().min(1),
      model: z.object({ id: z.string().min(1) }),
      instructions: z.string().nullable(),
      memories: z.array(DreamMemorySchema),
      sessionIds: z.array(z.string()),
    }),
    z.object({
      memories: z.array(DreamMemorySchema).nullable(),
      usage: z.object({
        input_tokens: z.number().int(),
        output_tokens: z.number().int(),
        cache_creation_input_tokens: z.number().int(),
        cache_read_input_tokens: z.number().int(),
      }),
    }),
  ),
  /** Returns to the queue (or stops) up to `limit` work items whose holder stopped heartbeating. */
  reclaimExpiredWork: rpcSubject(
    'dataplane.upkeep.reclaim-expired-work',
    z.object({ v: V1, limit: z.number().int().positive() }),
    z.object({ reclaimed: z.array(ReclaimedWorkSchema) }),
  ),
  /** Queues a fresh item for a session still waiting on a tool call with no open item; null if none needed. */
  requeueAwaitingAction: rpcSubject(
    'dataplane.upkeep.requeue-awaiting-action',
    z.object({ v: V1, sessionId: z.string().min(1) }),
    z.object({ work: z.object({ id: z.string(), environmentId: z.string() }).nullable() }),
  ),
} as const;
