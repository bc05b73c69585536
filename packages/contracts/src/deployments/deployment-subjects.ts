import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { pageSchema } from '../common/paging.js';
import {
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  DeploymentSchema,
  ListDeploymentRunsParamsSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
} from './deployments.js';

/** Request/reply subjects of the control service for deployments and their runs. */
export const DeploymentSubjects = {
  createDeployment: rpcSubject(
    'control.deployment.create',
    z.object({ ...Scoped, body: CreateDeploymentRequestSchema }),
    DeploymentSchema,
  ),
  getDeployment: rpcSubject('control.deployment.get', z.object(ById), DeploymentSchema),
  updateDeployment: rpcSubject(
    'control.deployment.update',
    z.object({ ...ById, body: UpdateDeploymentRequestSchema }),
    DeploymentSchema,
  ),
  listDeployments: rpcSubject(
    'control.deployment.list',
    z.object({ ...Scoped, query: ListDeploymentsParamsSchema }),
    pageSchema(DeploymentSchema),
  ),
  pauseDeployment: rpcSubject('control.deployment.pause', z.object(ById), DeploymentSchema),
  unpauseDeployment: rpcSubject('control.deployment.unpause', z.object(ById), DeploymentSchema),
  archiveDeployment: rpcSubject('control.deployment.archive', z.object(ById), DeploymentSchema),
  getDeploymentRun: rpcSubject('control.deployment_run.get', z.object(ById), DeploymentRunSchema),
  listDeploymentRuns: rpcSubject(
    'control.deployment_run.list',
    z.object({ ...Scoped, query: ListDeploymentRunsParamsSchema }),
    pageSchema(DeploymentRunSchema),
  ),
} as const;
