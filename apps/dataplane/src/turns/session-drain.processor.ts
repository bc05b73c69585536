import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue } from '@agentry/platform';
import { Inject } from '@nestjs/common';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { TurnRunner } from './turn-runner.service.js';

/** Consumes `session-drain` jobs: any replica may take any session. */
@Injectable()
export class SessionDrainProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly runner: TurnRunner,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(Jobs.sessionDrain, (job) => this.runner.drain(job.sessionId), this.config.AGENTRY_DRAIN_CONCURRENCY);
  }
}
