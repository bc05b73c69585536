import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { ConfirmationExpiryReconciler } from './confirmation-expiry.reconciler.js';
import { NoRunnerReconciler } from './no-runner.reconciler.js';
import { StaleWorkReconciler } from './stale-work.reconciler.js';
import { StallTracker } from './stall-tracker.js';
import { StalledSessionsRepository } from './stalled-sessions.repository.js';

/**
 * The safety net behind every wake-up: a BullMQ job scheduler ticks (one replica per tick), and each
 * tick re-kicks sessions with a pending inbox or an abandoned turn (kicks are deduped per session) and
 * requeues self-hosted work whose worker stopped heartbeating, and hands on tool confirmations that
 * timed out. A session whose turn keeps failing on
 * the same input is not re-kicked forever: it is handed to the dataplane to be ended with an error.
 */
@Injectable()
export class SessionReconciler implements OnApplicationBootstrap {
  private readonly stalls: StallTracker;

  constructor(
    private readonly jobs: JobQueue,
    private readonly stalled: StalledSessionsRepository,
    private readonly staleWork: StaleWorkReconciler,
    private readonly confirmations: ConfirmationExpiryReconciler,
    private readonly noRunner: NoRunnerReconciler,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.stalls = new StallTracker(config.AGENTRY_RECONCILE_MAX_ATTEMPTS);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.jobs.process(
      Jobs.reconcile,
      async () => {
        await this.tick();
        await this.staleWork.tick();
        await this.confirmations.tick();
        await this.noRunner.tick();
      },
      1,
    );
    await this.jobs.every(Jobs.reconcile, this.config.AGENTRY_RECONCILE_INTERVAL_MS, {});
  }

  async tick(): Promise<number> {
    const sessions = await this.stalled.find(this.config.AGENTRY_RECONCILE_BATCH);
    for (const { session, attempts, action } of this.stalls.judge(sessions)) {
      const job = { sessionId: session.id, tenantId: session.tenantId };
      if (action === 'kick') {
        await this.jobs.enqueue(Jobs.sessionDrain, { ...job, reason: 'reconcile' });
        continue;
      }
      this.logger.warn(
        { sessionId: session.id, attempts },
        'turn keeps failing on the same input; ending it with an error',
      );
      await this.jobs.enqueue(Jobs.sessionDrain, { ...job, reason: 'abandon', failedAttempts: attempts });
    }
    if (sessions.length) this.logger.info({ count: sessions.length }, 're-kicked stalled sessions');
    return sessions.length;
  }
}
