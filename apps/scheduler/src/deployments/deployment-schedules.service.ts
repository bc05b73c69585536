import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DeploymentChangedSchema, Jobs, SchedulerPubSubjects } from '@agentry/contracts';
import { JobQueue, LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import {
  ScheduledDeploymentsRepository,
  type ScheduledDeployment,
} from './scheduled-deployments.repository.js';

const SCHEDULER_PREFIX = 'deployment:';

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
    this.jobs.process(Jobs.deploymentSync, async () => void (await this.syncAll()), 1);
    // Redis may restart empty: the cron schedulers are rebuilt from the table as soon as it is back.
    this.jobs.onSchedulersLost(() => this.syncAll());
    await this.jobs.every(Jobs.deploymentSync, this.config.AGENTRY_DEPLOYMENT_SYNC_INTERVAL_MS, {});
    await this.syncAll();
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  /** Makes the job schedulers match the table; returns how many were installed and removed. */
  async syncAll(): Promise<{ installed: number; removed: number }> {
    const wanted = new Map((await this.deployments.listActive()).map((d) => [schedulerIdOf(d.id), d]));
    const existing = (await this.jobs.schedulers(Jobs.deploymentFire)).filter((s) =>
      s.id.startsWith(SCHEDULER_PREFIX),
    );
    const have = new Map(existing.map((s) => [s.id, s]));
    let installed = 0;
    let removed = 0;
    for (const [id, deployment] of wanted) {
      const current = have.get(id);
      if (current?.pattern === deployment.expression && current.tz === deployment.timezone) continue;
      await this.install(deployment);
      installed += 1;
    }
    for (const { id } of existing) {
      if (wanted.has(id)) continue;
      await this.jobs.removeScheduler(Jobs.deploymentFire, id);
      removed += 1;
    }
    if (installed || removed) this.logger.info({ installed, removed }, 'deployment schedules synced');
    return { installed, removed };
  }

  async syncOne(deploymentId: string): Promise<void> {
    const deployment = await this.deployments.findActive(deploymentId);
    const id = schedulerIdOf(deploymentId);
    if (!deployment) return void (await this.jobs.removeScheduler(Jobs.deploymentFire, id));
    const current = (await this.jobs.schedulers(Jobs.deploymentFire)).find((s) => s.id === id);
    // Re-installing an unchanged schedule would only move its next fire around.
    if (current?.pattern === deployment.expression && current.tz === deployment.timezone) return;
    await this.install(deployment);
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
