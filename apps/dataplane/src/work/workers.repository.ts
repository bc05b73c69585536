import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

/** Worker ids are chosen by the worker, so a row is keyed by environment too: two tenants never collide. */
const rowId = (environmentId: string, workerId: string) => `${environmentId}:${workerId}`;

/** Self-hosted workers as seen through their polls. */
@Injectable()
export class WorkersRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Stamped with the clock the polling window is measured by, so both sides agree on the time. */
  async touch(tenantId: string, environmentId: string, workerId: string): Promise<void> {
    const seenAt = this.clock.now();
    await this.db.$executeRaw`
      INSERT INTO workers (id, tenant_id, environment_id, kind, last_seen_at)
      VALUES (${rowId(environmentId, workerId)}, ${tenantId}, ${environmentId}, 'self_hosted', ${seenAt})
      ON CONFLICT (id) DO UPDATE SET last_seen_at = ${seenAt}`;
  }

  /** Workers of the environment that polled within the window (CMA's `workers_polling`). */
  countPolling(environmentId: string, withinMs: number): Promise<number> {
    return this.db.worker.count({
      where: {
        environmentId,
        kind: 'self_hosted',
        lastSeenAt: { gt: new Date(this.clock.nowMs() - withinMs) },
      },
    });
  }

  /** The self-hosted workers of a namespace's environments that polled within the window. */
  async seenInNamespace(
    tenantId: string,
    namespaceId: string,
    withinMs: number,
  ): Promise<Array<{ workerId: string; environmentId: string; lastSeenAt: number }>> {
    const rows = await this.db.$queryRaw<Array<{ id: string; environment_id: string; last_seen_at: Date }>>`
      SELECT w.id, w.environment_id, w.last_seen_at FROM workers w
      JOIN environments e ON e.id = w.environment_id AND e.tenant_id = ${tenantId} AND e.namespace_id = ${namespaceId}
      WHERE w.kind = 'self_hosted' AND w.last_seen_at > ${new Date(this.clock.nowMs() - withinMs)}
      ORDER BY w.last_seen_at DESC`;
    return rows.map((r) => ({
      workerId: r.id.slice(r.environment_id.length + 1),
      environmentId: r.environment_id,
      lastSeenAt: r.last_seen_at.getTime(),
    }));
  }

  /** workerId → last poll, for the self-hosted workers of a namespace's environments. */
  async lastSeenInNamespace(tenantId: string, namespaceId: string): Promise<Record<string, number>> {
    const rows = await this.db.$queryRaw<Array<{ id: string; environment_id: string; last_seen_at: Date }>>`
      SELECT w.id, w.environment_id, w.last_seen_at FROM workers w
      JOIN environments e ON e.id = w.environment_id AND e.tenant_id = ${tenantId} AND e.namespace_id = ${namespaceId}
      WHERE w.kind = 'self_hosted'`;
    return Object.fromEntries(
      rows.map((r) => [r.id.slice(r.environment_id.length + 1), r.last_seen_at.getTime()]),
    );
  }
}
