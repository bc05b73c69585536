import { Inject, Injectable } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, REDIS } from '@agentry/platform';
import type { Redis } from 'ioredis';

/** A pending-kick flag outlives a lost job by at most this long; the reconciler covers the rest. */
const FLAG_TTL_SECONDS = 30;

/**
 * Wake-ups that cannot be lost (DESIGN.md §6.2). A kick raises a per-session flag and enqueues a
 * drain only when the flag was down; a drain lowers the flag *before* it reads the inbox. So input
 * committed before the flag was lowered is seen by that drain, and input committed after it raises
 * the flag again and gets a drain of its own. (Coalescing on a BullMQ job id instead loses the kick
 * that arrives while a drain is finishing: the id is still taken by the job about to complete.)
 */
@Injectable()
export class SessionWakeups {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jobs: JobQueue,
  ) {}

  async kick(sessionId: string, tenantId: string): Promise<void> {
    const raised = await this.redis.set(flagKey(sessionId), '1', 'EX', FLAG_TTL_SECONDS, 'NX');
    if (raised === null) return;
    try {
      await this.jobs.enqueue(Jobs.sessionDrain, { sessionId, tenantId, reason: 'inbound' });
    } catch (error) {
      await this.redis.del(flagKey(sessionId)).catch(() => undefined);
      throw error;
    }
  }

  /** Called by a drain before it looks at the inbox. */
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
