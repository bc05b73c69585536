import { Inject, Injectable } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { ExpiredConfirmationsRepository } from './expired-confirmations.repository.js';

/**
 * The HITL timeout: sessions whose `ask` calls waited past their environment's timeout are handed to
 * the dataplane, which denies what is still unanswered and runs the turn on. Postgres is the clock's
 * record, so a restart of any service loses no expiry; it fires at most one reconcile interval late.
 */
@Injectable()
export class ConfirmationExpiryReconciler {
  constructor(
    private readonly expired: ExpiredConfirmationsRepository,
    private readonly jobs: JobQueue,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async tick(): Promise<number> {
    const sessions = await this.expired.find(this.config.AGENTRY_RECONCILE_BATCH);
    for (const session of sessions) {
      await this.jobs.enqueue(Jobs.sessionDrain, {
        sessionId: session.id,
        tenantId: session.tenantId,
        reason: 'expire_confirmations',
      });
    }
    if (sessions.length)
      this.logger.info(
        { count: sessions.length },
        'tool confirmations timed out; asked the dataplane to deny them',
      );
    return sessions.length;
  }
}
