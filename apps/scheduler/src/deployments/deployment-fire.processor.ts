import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppError, Jobs, type Actor, type DeploymentFireJob } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { DeploymentRunner } from './deployment-runner.service.js';
import { DeploymentSchedules } from './deployment-schedules.service.js';

/** Runs each cron fire through the same path as a manual run, tagged with its scheduled time. */
@Injectable()
export class DeploymentFireProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly runner: DeploymentRunner,
    private readonly schedules: DeploymentSchedules,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(Jobs.deploymentFire, (payload, job) => this.fire(payload, scheduledAt(job)), 4);
  }

  async fire(payload: DeploymentFireJob, scheduledFor: Date): Promise<void> {
    // Cron runs act for the deployment's namespace; no user is behind them.
    const actor: Actor = {
      tenantId: payload.tenantId,
      namespaceId: payload.namespaceId,
      userId: null,
      apiKeyId: null,
      role: 'member',
    };
    try {
      const run = await this.runner.run(actor, {
        id: payload.deploymentId,
        trigger: 'cron',
        scheduled_for: scheduledFor.toISOString(),
      });
      this.logger.info(
        { deploymentId: payload.deploymentId, runId: run.id, failed: run.error !== null },
        'deployment fired',
      );
    } catch (err) {
      // Paused, archived or deleted since the scheduler was installed, or this time already ran: not a failure.
      if (AppError.is(err, 'CONFLICT') || AppError.is(err, 'NOT_FOUND')) {
        this.logger.info(
          { deploymentId: payload.deploymentId, reason: err.message },
          'deployment fire skipped',
        );
        await this.schedules.syncOne(payload.deploymentId);
        return;
      }
      throw err;
    }
  }
}

/** The cron time a job-scheduler job stands for: BullMQ keeps it as `prevMillis` and in the job id. */
function scheduledAt(job: { id?: string; opts: object; timestamp: number }): Date {
  const fromOpts = (job.opts as { prevMillis?: number }).prevMillis;
  const fromId = Number(job.id?.split(':').at(-1));
  return new Date(fromOpts ?? (Number.isFinite(fromId) ? fromId : job.timestamp));
}
