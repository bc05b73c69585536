import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { ServiceDatabase } from '@agentry/db';
import { ClusterHandsHeartbeatSchema, HandsHeartbeatKeys, type HandsWorker } from '@agentry/contracts';
import { CLOCK, DATABASE, REDIS, type Clock } from '@agentry/platform';

/** The cluster workers whose last heartbeat has not expired, each with the caller's sessions it holds. */
@Injectable()
export class ClusterHandsReader {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async live(tenantId: string, namespaceId: string): Promise<HandsWorker[]> {
    const ids = await this.redis.zrangebyscore(HandsHeartbeatKeys.index, this.clock.nowMs(), '+inf');
    if (ids.length === 0) return [];
    const raw = await this.redis.mget(...ids.map((id) => HandsHeartbeatKeys.worker(id)));
    const beats = raw.flatMap((r) => {
      const parsed = r ? ClusterHandsHeartbeatSchema.safeParse(JSON.parse(r)) : null;
      return parsed?.success ? [parsed.data] : [];
    });
    // Workers are shared by every tenant: only the caller's own sessions are named.
    const held = beats.flatMap((b) =>
      b.liveSandboxes.filter((s) => s.tenantId === tenantId).map((s) => s.sessionId),
    );
    const visible = new Set(
      held.length === 0
        ? []
        : (
            await this.db.session.findMany({
              where: { id: { in: held }, tenantId, namespaceId },
              select: { id: true },
            })
          ).map((s) => s.id),
    );
    return beats.map((b) => ({
      kind: 'cluster' as const,
      workerId: b.workerId,
      lastHeartbeatAt: b.at,
      environmentId: null,
      capacity: b.capacity,
      runningCalls: b.runningCalls,
      liveSandboxes: b.liveSandboxes
        .filter((s) => s.tenantId === tenantId && visible.has(s.sessionId))
        .map((s) => s.sessionId),
    }));
  }
}
