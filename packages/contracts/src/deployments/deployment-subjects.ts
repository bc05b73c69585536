import { entitySubjects } from '../nats/entity-subjects.js';
import {
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  DeploymentSchema,
  ListDeploymentRunsParamsSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
} from './deployments.js';

const deployment = entitySubjects('control.deployment', DeploymentSchema);
const run = entitySubjects('control.deployment_run', DeploymentRunSchema);

/** Request/reply subjects of the control service for deployments and their runs. */
export const DeploymentSubjects = {
  createDeployment: deployment.create(CreateDeploymentRequestSchema),
  getDeployment: deployment.get(),
  updateDeployment: deployment.update(UpdateDeploymentRequestSchema),
  listDeployments: deployment.list(ListDeploymentsParamsSchema),
  pauseDeployment: deployment.onItem('pause'),
  unpauseDeployment: deployment.onItem('unpause'),
  archiveDeployment: deployment.onItem('archive'),
  getDeploymentRun: run.get(),
  listDeploymentRuns: run.list(ListDeploymentRunsParamsSchema),
} as const;
