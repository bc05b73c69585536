import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { MultiagentRunExecutor } from './multiagent-run.executor.js';
import { MultiagentRunsRepository } from './multiagent-runs.repository.js';

/** Runs queued at most this many at a time per scheduler replica. */
const CONCURRENT_RUNS = 16;
/** Unfinished runs queued again at start-up, oldest first (their job id makes a live job win). */
const RESUME_BATCH = 1_000;

/**
 * Consumes `multiagent-run` jobs. A scheduler that dies mid-run leaves its job locked; another replica
 * (or this one, restarted) takes it up when the lock expires, and the run resumes from its table row.
 */
@Injectable()
export class MultiagentRunProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly executor: MultiagentRunExecutor,
    private readonly runs: MultiagentRunsRepository,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.jobs.process(Jobs.multiagentRun, (job) => this.executor.execute(job.runId), CONCURRENT_RUNS, {
      lockDurationMs: this.config.AGENTRY_MULTIAGENT_LOCK_MS,
      maxStalledCount: 10,
    });
    // A run whose job Redis lost (a restart without persistence) is queued again from the table.
    for (const run of await this.runs.unfinished(RESUME_BATCH)) {
      await this.jobs
        .enqueue(Jobs.multiagentRun, { runId: run.id, tenantId: run.tenantId })
        .catch((error: unknown) => {
          this.logger.warn(
            { runId: run.id, err: (error as Error).message },
            'could not queue an unfinished multi-agent run again',
          );
        });
    }
  }
}
