import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { ReplayExecutor } from './replay.executor.js';
import { SessionReplaysRepository } from './session-replays.repository.js';

/** Replays run at most this many at a time per scheduler replica. */
const CONCURRENT_REPLAYS = 8;
/** Unfinished replays queued again at start-up, oldest first (their job id makes a live job win). */
const RESUME_BATCH = 1_000;

/** Consumes `session-replay` jobs; a replay left running by a stopped scheduler resumes from its row and log. */
@Injectable()
export class ReplayProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly executor: ReplayExecutor,
    private readonly replays: SessionReplaysRepository,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.jobs.process(Jobs.sessionReplay, (job) => this.executor.execute(job.replayId), CONCURRENT_REPLAYS, {
      lockDurationMs: this.config.AGENTRY_REPLAY_LOCK_MS,
      maxStalledCount: 10,
    });
    // A replay whose job Redis lost (a restart without persistence) is queued again from the table.
    for (const replay of await this.replays.unfinished(RESUME_BATCH)) {
      await this.jobs
        .enqueue(Jobs.sessionReplay, { replayId: replay.id, tenantId: replay.tenantId })
        .catch((error: unknown) => {
          this.logger.warn(
            { replayId: replay.id, err: (error as Error).message },
            'could not queue an unfinished session replay again',
          );
        });
    }
  }
}
