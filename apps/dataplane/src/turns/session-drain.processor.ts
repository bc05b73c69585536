import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs, type SessionDrainJob } from '@agentry/contracts';
import { JobQueue } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { ConfirmationExpiry } from './confirmation-expiry.js';
import { NoRunnerAnswers } from './no-runner-answers.js';
import { SessionDrain } from '../drain/session-drain.js';
import { SessionWakeups } from '../drain/session-wakeups.js';
import { TurnAbandonment } from './turn-abandonment.js';
import { TurnPipeline } from './turn-pipeline.js';

/** Consumes `session-drain` jobs: any replica may take any session, and runs its turns through the pipeline. */
@Injectable()
export class SessionDrainProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly drains: SessionDrain,
    private readonly pipeline: TurnPipeline,
    private readonly wakeups: SessionWakeups,
    private readonly abandonment: TurnAbandonment,
    private readonly expiry: ConfirmationExpiry,
    private readonly noRunner: NoRunnerAnswers,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  onApplicationBootstrap(): void {
    const concurrency = this.config.AGENTRY_DRAIN_CONCURRENCY;
    this.jobs.process(Jobs.sessionDrain, (job, raw) => this.run(job, raw.id), concurrency);
    // Input committed on this replica starts its turn here, with no trip through the queue.
    this.jobs.runInline(Jobs.sessionDrain, (job) => this.run(job, undefined), concurrency);
  }

  /** `jobId` is undefined for a drain started inline, which no flag stands for. */
  private async run(job: SessionDrainJob, jobId: string | undefined): Promise<void> {
    if (job.reason === 'abandon') return this.abandonment.end(job.sessionId, job.failedAttempts);
    // The denials land in the inbox before it is read below, so this same drain runs the turn on.
    if (job.reason === 'expire_confirmations') await this.expiry.expire(job.sessionId);
    if (job.reason === 'no_runner') await this.noRunner.answer(job);
    // Lowered before the inbox is read: any input committed from here on raises it and kicks again.
    if (jobId !== undefined) await this.wakeups.claim(job.sessionId);
    const outcome = await this.drains.drain(job.sessionId, (turn) => this.pipeline.run(turn));
    if (outcome === 'more') await this.wakeups.requeue(job.sessionId, job.tenantId);
  }
}
