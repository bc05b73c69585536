import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

export interface SessionStats {
  byStatus: Array<{ status: string; count: number }>;
  inboxPending: number;
  inboxOldestSeconds: number;
  leasesActive: number;
  /** Running sessions that no live turn holds: a lost wake-up or a dead runner not yet taken over. */
  runningWithoutLease: number;
}

/** Installation-wide session figures for the metrics gauges; a few indexed counts. */
@Injectable()
export class SessionStatsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>) {}

  async read(): Promise<SessionStats> {
    const statuses = await this.db.$queryRaw<Array<{ status: string; count: bigint }>>`
      SELECT status::text AS status, count(*) AS count FROM sessions WHERE archived_at IS NULL GROUP BY status`;
    const [row] = await this.db.$queryRaw<
      Array<{ pending: bigint; oldest: number | null; leases: bigint; orphaned: bigint }>
    >`
      SELECT
        (SELECT count(*) FROM session_events WHERE processed_at IS NULL) AS pending,
        (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM session_events WHERE processed_at IS NULL) AS oldest,
        (SELECT count(*) FROM sessions WHERE lease_expires_at > now()) AS leases,
        (SELECT count(*) FROM sessions WHERE status = 'running' AND archived_at IS NULL
           AND (lease_expires_at IS NULL OR lease_expires_at < now())) AS orphaned`;
    return {
      byStatus: statuses.map((s) => ({ status: s.status, count: Number(s.count) })),
      inboxPending: Number(row?.pending ?? 0),
      inboxOldestSeconds: Math.max(0, row?.oldest ?? 0),
      leasesActive: Number(row?.leases ?? 0),
      runningWithoutLease: Number(row?.orphaned ?? 0),
    };
  }
}
