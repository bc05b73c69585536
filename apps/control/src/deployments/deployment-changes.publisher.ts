import { Injectable } from '@nestjs/common';
import { SchedulerPubSubjects, type DeploymentChanged } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/**
 * Tells the scheduler a deployment's schedule, status or archive state may have changed, so its cron
 * job scheduler follows at once. At-most-once: the scheduler's periodic sweep catches a lost message.
 */
@Injectable()
export class DeploymentChangesPublisher {
  constructor(private readonly bus: NatsBus) {}

  changed(deploymentId: string): void {
    this.bus.publish(SchedulerPubSubjects.deploymentChanged, {
      deployment_id: deploymentId,
    } satisfies DeploymentChanged);
  }
}
