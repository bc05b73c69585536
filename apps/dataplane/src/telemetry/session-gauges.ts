import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SessionStatusSchema } from '@agentry/contracts';
import { CLOCK, observeGauge, platformMetrics, type Clock } from '@agentry/platform';
import { SessionStatsRepository, type SessionStats } from './session-stats.repository.js';

const FRESH_MS = 5_000;

/**
 * Session gauges for the whole installation, read from Postgres at collection time (at most once per
 * 5 s, however many gauges and scrapers ask). Every dataplane replica reports the same figures: sum
 * nothing across replicas, take `max`.
 */
@Injectable()
export class SessionGauges implements OnModuleInit {
  private last: { at: number; stats: Promise<SessionStats> } | undefined;

  constructor(
    private readonly repository: SessionStatsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Counters start at 0, so a rate over them is 0 rather than no data until the first event.
    platformMetrics().leaseTakeovers.add(0);
    platformMetrics().budgetRejections.add(0);
    observeGauge('agentry.sessions', 'Sessions by status (archived excluded)', async () => {
      const { byStatus } = await this.stats();
      // Every status appears, with 0 where no session has it, so a series never vanishes.
      return SessionStatusSchema.options.map((status) => ({
        value: byStatus.find((s) => s.status === status)?.count ?? 0,
        attributes: { status },
      }));
    });
    observeGauge('agentry.inbox.pending', 'Inbound events not yet consumed by a turn', async () => [
      { value: (await this.stats()).inboxPending },
    ]);
    observeGauge(
      'agentry.inbox.oldest_age',
      'Seconds the oldest unconsumed inbound event has waited',
      async () => [{ value: (await this.stats()).inboxOldestSeconds }],
    );
    observeGauge('agentry.leases.active', 'Turn leases held now, across all dataplane replicas', async () => [
      { value: (await this.stats()).leasesActive },
    ]);
    observeGauge('agentry.sessions.running_unleased', 'Running sessions no live turn holds', async () => [
      { value: (await this.stats()).runningWithoutLease },
    ]);
  }

  private stats(): Promise<SessionStats> {
    const now = this.clock.nowMs();
    if (!this.last || now - this.last.at > FRESH_MS) {
      const stats = this.repository.read();
      stats.catch(() => (this.last = undefined));
      this.last = { at: now, stats };
    }
    return this.last.stats;
  }
}
