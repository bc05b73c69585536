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

export const UpkeepSubjects = {
  /** Deletes the logs of up to `limit` sessions archived or terminated before `cutoff`. */
  purgeEndedLogs: rpcSubject(
    'dataplane.upkeep.purge-ended-logs',
    z.object({ v: V1, cutoff: z.iso.datetime({ offset: true }), limit: z.number().int().positive() }),
    z.object({ sessionIds: z.array(z.string()), events: z.number().int().nonnegative() }),
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
