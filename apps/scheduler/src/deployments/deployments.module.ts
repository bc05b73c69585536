import { Module } from '@nestjs/common';
import { DeploymentFireProcessor } from './deployment-fire.processor.js';
import { DeploymentRunner } from './deployment-runner.service.js';
import { DeploymentRunRepair } from './deployment-run-repair.service.js';
import { StrandedRunsRepository } from './stranded-runs.repository.js';
import { DeploymentRunsHandler } from './deployment-runs.handler.js';
import { DeploymentSchedules } from './deployment-schedules.service.js';
import { ScheduledDeploymentsRepository } from './scheduled-deployments.repository.js';

@Module({
  controllers: [DeploymentRunsHandler],
  providers: [
    ScheduledDeploymentsRepository,
    StrandedRunsRepository,
    DeploymentSchedules,
    DeploymentRunner,
    DeploymentRunRepair,
    DeploymentFireProcessor,
  ],
  exports: [DeploymentSchedules, DeploymentRunner],
})
export class DeploymentsModule {}
