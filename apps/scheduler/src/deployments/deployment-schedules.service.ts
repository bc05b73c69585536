import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CronExpressionParser } from 'cron-parser';
import { DeploymentChangedSchema, Jobs, SchedulerPubSubjects } from '@agentry/contracts';
import { JobQueue, LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { DeploymentRunRepair } from './deployment-run-repair.service.js';
import {
  ScheduledDeploymentsRepository,
  type ScheduledDeployment,
} from './scheduled-deployments.repository.js';

const SCHEDULER_PREFIX = 'deployment:';

/** Why the cron engine BullMQ fires with would refuse this schedule, or null when it can run. */
function scheduleProblem(d: ScheduledDeployment): string | null {
  try {
    CronExpressionParser.parse(d.expression, { tz: d.timezone });
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export const schedulerIdOf = (deploymentId: string) => `${SCHEDULER_PREFIX}${deploymentId}`;

/**
 * Keeps one BullMQ job scheduler per active cron deployment. Control publishes a change whenever a
 * deployment's schedule or status may have moved, and the affected scheduler follows at once; a
 * periodic sweep (one replica per tick) matches the whole table, so a lost message costs at most one
 * interval. Unpausing installs the scheduler afresh, which fires from the next matching time: no backfill.
 */
@Injectable()
export class DeploymentSchedules implements OnApplicationBootstrap, OnApplicationShutdown {
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly jobs: JobQueue,
    private readonly bus: NatsBus,
    private readonly deployments: ScheduledDeploymentsRepository,
    private readonly repair: DeploymentRunRepair,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribe = this.bus.subscribe(
      SchedulerPubSubjects.deploymentChanged,
      (message) => {
        const parsed = DeploymentChangedSchema.safeParse(message);
        if (parsed.success)
          void this.syncOne(parsed.data.deployment_id).catch((err) =>
            this.logger.warn({ err }, 'deployment schedule sync failed'),
          );
      },
      'scheduler',
    );
    // The same tick (one replica each) finishes runs a stopped scheduler left half done.
    this.jobs.process(
      Jobs.deploymentSync,
      async () => {
        await this.syncAll();
        await this.repair.repair();
      },
      1,
    );
    // Redis may restart empty: the cron schedulers are rebuilt from the table as soon as it is back.
    this.jobs.onSchedulersLost(() => this.syncAll());
    await this.jobs.every(Jobs.deploymentSync, this.config.AGENTRY_DEPLOYMENT_SYNC_INTERVAL_MS, {});
    await this.syncAll();
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  /**
   * Makes the job schedulers match the table; returns how many were installed, removed and refused. A row
   * whose expression cannot be scheduled (written before expressions were checked, or by hand) is logged
   * and skipped: it must never stop the others from being installed.
   */
  async syncAll(): Promise<{ installed: number; removed: number; refused: number }> {
    const wanted = new Map((await this.deployments.listActive()).map((d) => [schedulerIdOf(d.id), d]));
    const existing = (await this.jobs.schedulers(Jobs.deploymentFire)).filter((s) =>
      s.id.startsWith(SCHEDULER_PREFIX),
    );
    const have = new Map(existing.map((s) => [s.id, s]));
    let installed = 0;
    let removed = 0;
    let refused = 0;
    for (const [id, deployment] of wanted) {
      const current = have.get(id);
      if (current?.pattern === deployment.expression && current.tz === deployment.timezone) continue;
      if (await this.tryInstall(deployment)) installed += 1;
      else refused += 1;
    }
    for (const { id } of existing) {
      if (wanted.has(id)) continue;
      await this.jobs.removeScheduler(Jobs.deploymentFire, id);
      removed += 1;
    }
    if (installed || removed || refused)
      this.logger.info({ installed, removed, refused }, 'deployment schedules synced');
    return { installed, removed, refused };
  }

  async syncOne(deploymentId: string): Promise<void> {
    const deployment = await this.deployments.findActive(deploymentId);
    const id = schedulerIdOf(deploymentId);
    if (!deployment) return void (await this.jobs.removeScheduler(Jobs.deploymentFire, id));
    const current = (await this.jobs.schedulers(Jobs.deploymentFire)).find((s) => s.id === id);
    // Re-installing an unchanged schedule would only move its next fire around.
    if (current?.pattern === deployment.expression && current.tz === deployment.timezone) return;
    await this.tryInstall(deployment);
  }

  /** Installs the schedule; false (logged) when its expression or time zone cannot be scheduled. */
  private async tryInstall(d: ScheduledDeployment): Promise<boolean> {
    const problem = scheduleProblem(d);
    if (problem) {
      this.logger.warn(
        { deploymentId: d.id, expression: d.expression, timezone: d.timezone, reason: problem },
        'deployment schedule refused: the expression cannot be scheduled',
      );
      return false;
    }
    await this.install(d);
    return true;
  }

  private async install(d: ScheduledDeployment): Promise<void> {
    await this.jobs.cron(
      Jobs.deploymentFire,
      schedulerIdOf(d.id),
      { pattern: d.expression, tz: d.timezone },
      {
        deploymentId: d.id,
        tenantId: d.tenantId,
        namespaceId: d.namespaceId,
      },
    );
  }
}
