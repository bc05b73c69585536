import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ControlUpkeepSubjects,
  HandsSubjects,
  Jobs,
  UpkeepSubjects,
  type ControlRetainedTable,
  type HandsSessionEnded,
} from '@agentry/contracts';
import {
  CLOCK,
  JobQueue,
  LOGGER,
  NatsBus,
  platformMetrics,
  RpcClient,
  type Clock,
  type Logger,
} from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';

const DAY_MS = 86_400_000;

type RetentionKind = 'sessions' | ControlRetainedTable;

/** What one sweep deleted, by kind. */
type RetentionCounts = Record<RetentionKind, number>;

/**
 * Retention of archived sessions, finished deployment runs, the audit log and deleted files' rows, each
 * with its own window in days (0 keeps forever). A BullMQ job scheduler ticks, and each tick runs on one
 * replica only; each kind is deleted in batches of AGENTRY_RETENTION_BATCH, at most
 * AGENTRY_RETENTION_MAX_BATCHES per tick, so a large backlog is worked off over several ticks rather
 * than in one long transaction. The owners of the tables delete; the scheduler sets the pace and counts.
 */
@Injectable()
export class RetentionSweepService implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly rpc: RpcClient,
    private readonly bus: NatsBus,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get windows(): Record<RetentionKind, number> {
    return {
      sessions: this.config.AGENTRY_SESSION_RETENTION_DAYS,
      deployment_runs: this.config.AGENTRY_DEPLOYMENT_RUN_RETENTION_DAYS,
      audit_log: this.config.AGENTRY_AUDIT_LOG_RETENTION_DAYS,
      deleted_files: this.config.AGENTRY_DELETED_FILE_RETENTION_DAYS,
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!Object.values(this.windows).some((days) => days > 0)) {
      await this.jobs.removeScheduler(Jobs.retention, `${Jobs.retention.queue}-every`);
      return;
    }
    this.jobs.process(Jobs.retention, () => this.tick().then(() => undefined), 1);
    await this.jobs.every(Jobs.retention, this.config.AGENTRY_RETENTION_INTERVAL_MS, {});
  }

  /** One sweep over every kind whose window is set; what it deleted. */
  async tick(now = this.clock.now()): Promise<RetentionCounts> {
    const counts: RetentionCounts = { sessions: 0, deployment_runs: 0, audit_log: 0, deleted_files: 0 };
    for (const [kind, days] of Object.entries(this.windows) as Array<[RetentionKind, number]>) {
      if (days <= 0) continue;
      const cutoff = new Date(now.getTime() - days * DAY_MS);
      counts[kind] = await this.sweep(kind, cutoff);
      if (counts[kind]) platformMetrics().retentionDeleted.add(counts[kind], { kind });
    }
    this.logger.info({ ...counts }, 'retention sweep done');
    return counts;
  }

  private async sweep(kind: RetentionKind, cutoff: Date): Promise<number> {
    const limit = this.config.AGENTRY_RETENTION_BATCH;
    let total = 0;
    for (let batch = 0; batch < this.config.AGENTRY_RETENTION_MAX_BATCHES; batch += 1) {
      const deleted = await this.deleteBatch(kind, cutoff, limit);
      total += deleted;
      if (deleted < limit) break;
    }
    return total;
  }

  private async deleteBatch(kind: RetentionKind, cutoff: Date, limit: number): Promise<number> {
    if (kind !== 'sessions') {
      const reply = await this.rpc.request(ControlUpkeepSubjects.purgeExpired, {
        table: kind,
        cutoff: cutoff.toISOString(),
        limit,
      });
      return reply.deleted;
    }
    const { sessions } = await this.rpc.request(UpkeepSubjects.purgeArchivedSessions, {
      cutoff: cutoff.toISOString(),
      limit,
    });
    // The workers drop what they keep for a session outside the database, as after a user's delete.
    for (const s of sessions) {
      const ended: HandsSessionEnded = { v: 1, tenantId: s.tenantId, sessionId: s.id };
      this.bus.publish(HandsSubjects.sessionEnded, ended);
    }
    return sessions.length;
  }
}
