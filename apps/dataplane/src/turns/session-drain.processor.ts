import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { SessionWakeups } from './session-wakeups.js';
import { TurnRunner } from './turn-runner.service.js';

/** Consumes `session-drain` jobs: any replica may take any session. */
@Injectable()
export class SessionDrainProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly runner: TurnRunner,
    private readonly wakeups: SessionWakeups,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(
      Jobs.sessionDrain,
      async (job) => {
        // Lowered before the inbox is read: any input committed from here on raises it and kicks again.
        await this.wakeups.claim(job.sessionId);
        const outcome = await this.runner.drain(job.sessionId);
        if (outcome === 'more') await this.wakeups.requeue(job.sessionId, job.tenantId);
      },
      this.config.AGENTRY_DRAIN_CONCURRENCY,
    );
  }
}
