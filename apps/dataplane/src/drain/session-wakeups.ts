import { Inject, Injectable } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, REDIS } from '@agentry/platform';
import type { Redis } from 'ioredis';

/** A pending-kick flag outlives a lost job by at most this long; the reconciler covers the rest. */
const FLAG_TTL_SECONDS = 30;

/**
 * Wake-ups that cannot be lost (DESIGN.md §6.2). The drain runs in the replica that committed the input
 * when it has room: started after the commit, it reads the inbox after it, and if another drain holds
 * the session, that holder looks at the inbox again after releasing it — no flag is needed, and the
 * input reaches its turn with no round trip to Redis.
 *
 * Without room, the kick goes through the shared queue, coalesced on a per-session flag: a kick raises it
 * and enqueues a drain only when it was down; a queued drain lowers it *before* it reads the inbox. So
 * input committed before the flag was lowered is seen by that drain, and input committed after it raises
 * the flag again and gets a drain of its own. (Coalescing on a BullMQ job id instead loses the kick that
 * arrives while a drain is finishing: the id is still taken by the job about to complete.)
 *
 * A replica that dies between the commit and taking the lease leaves the input in the inbox (with the flag
 * up for at most its TTL); the reconciler picks it up (DESIGN.md §6.8).
 */
@Injectable()
export class SessionWakeups {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jobs: JobQueue,
  ) {}

  /** `takeover`: the session's lease expired under a holder that stopped renewing it (`LeaseExpiryWatch`). */
  async kick(sessionId: string, tenantId: string, reason: 'inbound' | 'takeover' = 'inbound'): Promise<void> {
    const job = { sessionId, tenantId, reason };
    if (this.jobs.runHere(Jobs.sessionDrain, job)) return;
    const raised = await this.redis.set(flagKey(sessionId), '1', 'EX', FLAG_TTL_SECONDS, 'NX');
    if (raised === null) return;
    try {
      await this.jobs.enqueue(Jobs.sessionDrain, job);
    } catch (error) {
      await this.redis.del(flagKey(sessionId)).catch(() => undefined);
      throw error;
    }
  }

  /** Called by a queued drain before it looks at the inbox. */
  async claim(sessionId: string): Promise<void> {
    await this.redis.del(flagKey(sessionId));
  }

  /** A drain that stops early (its turn budget per job spent) hands the session back to the queue. */
  async requeue(sessionId: string, tenantId: string): Promise<void> {
    await this.jobs.enqueue(Jobs.sessionDrain, { sessionId, tenantId, reason: 'recheck' });
  }
}

function flagKey(sessionId: string): string {
  return `wake:${sessionId}`;
}
