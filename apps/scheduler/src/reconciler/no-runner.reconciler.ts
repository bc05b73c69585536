import { Inject, Injectable } from '@nestjs/common';
import { Jobs } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { UnrunToolCallsRepository } from './unrun-tool-calls.repository.js';

/**
 * The no-runner rule of self-hosted environments: tool calls no worker took within
 * `AGENTRY_NO_RUNNER_TIMEOUT_MS` are handed to the dataplane, which answers each with an error result and
 * runs the turn on. Postgres is the clock's record; it fires at most one reconcile interval late.
 */
@Injectable()
export class NoRunnerReconciler {
  constructor(
    private readonly unrun: UnrunToolCallsRepository,
    private readonly jobs: JobQueue,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async tick(): Promise<number> {
    const timeoutMs = this.config.AGENTRY_NO_RUNNER_TIMEOUT_MS;
    const sessions = await this.unrun.find(timeoutMs, this.config.AGENTRY_RECONCILE_BATCH);
    for (const session of sessions) {
      await this.jobs.enqueue(Jobs.sessionDrain, {
        sessionId: session.id,
        tenantId: session.tenantId,
        reason: 'no_runner',
        toolUseIds: session.toolUseIds,
        waitedSeconds: timeoutMs / 1000,
      });
    }
    if (sessions.length)
      this.logger.info(
        { count: sessions.length },
        'self-hosted tool calls found no worker; answering them with errors',
      );
    return sessions.length;
  }
}
