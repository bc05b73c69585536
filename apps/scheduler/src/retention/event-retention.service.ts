import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs, UpkeepSubjects } from '@agentry/contracts';
import { JobQueue, LOGGER, RpcClient, type Logger, CLOCK, type Clock } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';

const DAY_MS = 86_400_000;

/**
 * Event retention, off unless AGENTRY_EVENT_RETENTION_DAYS is set: a BullMQ job scheduler ticks (one
 * replica per tick) and each tick deletes, batch by batch, the logs of sessions archived or terminated
 * longer ago than the window. The log of live work (a turn running, input pending) is never deleted.
 * The dataplane owns the logs and deletes each batch; the scheduler only sets the pace.
 */
@Injectable()
export class EventRetentionService implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly rpc: RpcClient,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.AGENTRY_EVENT_RETENTION_DAYS) {
      // Turned off after having been on: stop the ticks that would wait here for a processor.
      await this.jobs.removeScheduler(Jobs.eventRetention, `${Jobs.eventRetention.queue}-every`);
      return;
    }
    this.jobs.process(Jobs.eventRetention, () => this.tick().then(() => undefined), 1);
    await this.jobs.every(Jobs.eventRetention, this.config.AGENTRY_EVENT_RETENTION_INTERVAL_MS, {});
  }

  /** One sweep; the number of events deleted. */
  async tick(now = this.clock.now()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.AGENTRY_EVENT_RETENTION_DAYS * DAY_MS);
    let total = 0;
    for (;;) {
      const purged = await this.rpc.request(UpkeepSubjects.purgeEndedLogs, {
        cutoff: cutoff.toISOString(),
        limit: this.config.AGENTRY_RECONCILE_BATCH,
      });
      if (!purged.sessionIds.length) break;
      total += purged.events;
      this.logger.info(
        { sessions: purged.sessionIds, events: purged.events, cutoff: cutoff.toISOString() },
        'deleted the events of ended sessions past retention',
      );
      if (purged.sessionIds.length < this.config.AGENTRY_RECONCILE_BATCH) break;
    }
    return total;
  }
}
