import { Inject, Injectable } from '@nestjs/common';
import {
  DataplaneSubjects,
  DeploymentRunSubjects,
  type Actor,
  type DeploymentError,
} from '@agentry/contracts';
import { CLOCK, LOGGER, RpcClient, type Clock, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { runAppendIdempotency } from './run-idempotency.js';
import { StrandedRunsRepository, type StrandedRun } from './stranded-runs.repository.js';

const BATCH = 100;

/**
 * Repairs runs a scheduler left half done (it died between recording the run and sending the initial
 * events, or before finishing it): a cron run whose session got nothing gets its initial events now and
 * succeeds; a run whose events arrived is only finished; a run with no session, or a manual or webhook run
 * whose caller's initial events are unknown here, is finished as failed with a message that says so.
 */
@Injectable()
export class DeploymentRunRepair {
  constructor(
    private readonly runs: StrandedRunsRepository,
    private readonly rpc: RpcClient,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One pass; the number of runs finished. */
  async repair(now = this.clock.now()): Promise<number> {
    const before = new Date(now.getTime() - this.config.AGENTRY_DEPLOYMENT_RUN_REPAIR_AFTER_MS);
    const stranded = await this.runs.find(before, BATCH);
    for (const run of stranded) {
      const actor: Actor = {
        tenantId: run.tenantId,
        namespaceId: run.namespaceId,
        userId: null,
        apiKeyId: null,
        role: 'member',
      };
      const error = await this.complete(actor, run);
      await this.rpc.request(DeploymentRunSubjects.finish, { actor, run_id: run.id, error });
      this.logger.warn(
        { runId: run.id, sessionId: run.sessionId, status: run.status, failed: error !== null },
        'repaired a deployment run its scheduler left unfinished',
      );
    }
    return stranded.length;
  }

  /** Sends what the run still owes its session; the error it finishes with, or null. */
  private async complete(actor: Actor, run: StrandedRun): Promise<DeploymentError | null> {
    if (run.status === 'running' && run.sessionId && run.hasEvents) return null;
    if (run.status !== 'running' || !run.sessionId) {
      return { type: 'unknown_error', message: 'The run stopped before its session was created' };
    }
    if (run.trigger !== 'cron') {
      return {
        type: 'unknown_error',
        message: `The run stopped before its initial events reached session ${run.sessionId}`,
      };
    }
    try {
      await this.rpc.request(DataplaneSubjects.appendEvents, {
        actor,
        sessionId: run.sessionId,
        events: run.initialEvents,
        idempotency: runAppendIdempotency(run.id),
      });
      return null;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return {
        type: 'unknown_error',
        message: `Session ${run.sessionId} did not accept the initial events: ${reason}`,
      };
    }
  }
}
