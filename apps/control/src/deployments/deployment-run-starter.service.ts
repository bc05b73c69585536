import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateSessionRequest,
  type DeploymentError,
  type DeploymentInitialEvent,
  type DeploymentRun,
  type DeploymentRunTrigger,
  type StartDeploymentRunReply,
} from '@agentry/contracts';
import { isUniqueViolation, type Deployment as DeploymentRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { AUTO_PAUSING_ERRORS, preflightRun, sessionCreationError } from './deployment-run-preflight.js';
import { DeploymentRunsRepository } from './deployment-runs.repository.js';
import { DeploymentRunsService } from './deployment-runs.service.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';
import { WebhookEventsPublisher } from '../webhook-events/webhook-events.publisher.js';

export interface StartRunRequest {
  id: string;
  trigger: DeploymentRunTrigger;
  scheduled_for?: string;
  initial_events?: DeploymentInitialEvent[];
}

/**
 * Control's half of a deployment run: the run record and the session, created exactly as
 * `POST /v1/sessions` creates one. The scheduler sends the initial events and then finishes the run.
 */
@Injectable()
export class DeploymentRunStarter {
  constructor(
    private readonly deployments: DeploymentsService,
    private readonly deploymentRows: DeploymentsRepository,
    private readonly runs: DeploymentRunsRepository,
    private readonly runRecords: DeploymentRunsService,
    private readonly sessions: SessionsService,
    private readonly webhookEvents: WebhookEventsPublisher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(actor: Actor, req: StartRunRequest): Promise<StartDeploymentRunReply> {
    assertCanWrite(actor);
    const row = await this.deployments.require(actor, req.id);
    if (row.archivedAt)
      throw new AppError('CONFLICT', `Deployment ${row.id} is archived and can no longer run`);
    // As in CMA, pausing stops the triggers; a person can still run a paused deployment by hand.
    if (row.pausedAt && req.trigger !== 'manual') {
      throw new AppError(
        'CONFLICT',
        `Deployment ${row.id} is paused; its ${req.trigger} runs resume when it is unpaused`,
      );
    }
    const runId = await this.claim(actor, row, req);
    const initialEvents = req.initial_events ?? (row.initialEvents as DeploymentInitialEvent[]);
    const blocked = await preflightRun(actor, row, this.deployments.references);
    if (blocked) return { run: await this.fail(actor, runId, blocked), initial_events: initialEvents };
    let sessionId: string;
    try {
      sessionId = (await this.sessions.create(actor, sessionRequest(row), { deploymentId: row.id })).id;
    } catch (err) {
      return { run: await this.fail(actor, runId, sessionCreationError(err)), initial_events: initialEvents };
    }
    const run = await this.runs.finish(runId, { sessionId, status: 'running' });
    await this.announce(actor, runId, 'start');
    // CMA's `schedule.last_run_at` is the last scheduled run; manual and webhook runs leave it alone.
    if (req.trigger === 'cron') await this.deploymentRows.update(actor, row.id, { lastRunAt: run.createdAt });
    return { run: await this.runRecords.get(actor, runId), initial_events: initialEvents };
  }

  /** The initial events reached the session (error null) or did not (the turn never started). */
  async finish(actor: Actor, runId: string, error: DeploymentError | null): Promise<DeploymentRun> {
    const found = await this.runs.find(actor, runId);
    if (!found) throw new AppError('NOT_FOUND', `Deployment run ${runId} not found`);
    // A pending run is finished only by the repair of a run its scheduler left behind (always failed).
    if (found.status === 'running' || (found.status === 'pending' && error)) {
      await this.runs.finish(runId, {
        status: error ? 'failed' : 'succeeded',
        finishedAt: this.clock.now(),
        ...(error ? { error } : {}),
      });
      await this.announce(actor, runId, error ? 'fail' : 'succeed');
    }
    return this.runRecords.get(actor, runId);
  }

  /** Inserts the run row first, so a second fire for the same scheduled time stops here. */
  private async claim(actor: Actor, row: DeploymentRow, req: StartRunRequest): Promise<string> {
    const id = newId(ID_PREFIXES.deploymentRun);
    try {
      await this.runs.create({
        id,
        tenantId: actor.tenantId,
        deploymentId: row.id,
        trigger: req.trigger,
        status: 'pending',
        scheduledFor: req.scheduled_for ? new Date(req.scheduled_for) : null,
        startedAt: this.clock.now(),
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError('CONFLICT', `Deployment ${row.id} already ran for ${req.scheduled_for}`, {
          cause: err,
        });
      }
      throw err;
    }
    return id;
  }

  /** `deployment_run.started|succeeded|failed` for webhook endpoints. */
  private announce(actor: Actor, runId: string, action: 'start' | 'succeed' | 'fail'): Promise<void> {
    return this.webhookEvents.changed(actor, { action, resourceType: 'deployment_run', resourceId: runId });
  }

  private async fail(actor: Actor, runId: string, error: DeploymentError): Promise<DeploymentRun> {
    const run = await this.runs.finish(runId, { status: 'failed', error, finishedAt: this.clock.now() });
    await this.announce(actor, runId, 'fail');
    if (AUTO_PAUSING_ERRORS.has(error.type))
      await this.deployments.pauseForError(actor, run.deploymentId, error);
    return this.runRecords.get(actor, runId);
  }
}

function sessionRequest(row: DeploymentRow): CreateSessionRequest {
  return {
    agent: row.agentVersion ? { type: 'agent', id: row.agentId, version: row.agentVersion } : row.agentId,
    environment_id: row.environmentId,
    title: row.name,
    metadata: row.metadata as Record<string, string>,
    resources: row.resources as CreateSessionRequest['resources'],
    vault_ids: row.vaultIds,
    ...(row.budget ? { budget: row.budget as CreateSessionRequest['budget'] } : {}),
  };
}
