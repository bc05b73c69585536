import { Controller } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  CreateEnvironmentKeyRequestSchema,
  CreateEnvironmentRequestSchema,
  ListParamsSchema,
  UpdateEnvironmentRequestSchema,
} from '@agentry/contracts';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/environments')
export class EnvironmentsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createEnvironment, body: CreateEnvironmentRequestSchema },
  list: { route: 'GET', subject: R.listEnvironments, query: ListParamsSchema },
  get: { route: 'GET :id', subject: S.getEnvironment },
  update: { route: 'POST :id', subject: R.updateEnvironment, body: UpdateEnvironmentRequestSchema },
  archive: { route: 'POST :id/archive', subject: R.archiveEnvironment },
  delete: { route: 'DELETE :id', subject: R.deleteEnvironment },
  /** A new worker key, shown once; `{"revoke_existing": true}` rotates (revokes the others). */
  createKey: {
    route: 'POST :id/keys',
    subject: R.createEnvironmentKey,
    body: CreateEnvironmentKeyRequestSchema.default({}),
  },
  listKeys: { route: 'GET :id/keys', subject: R.listEnvironmentKeys },
  revokeKey: { route: 'POST :id/keys/:keyId/revoke', subject: R.revokeEnvironmentKey },
}) {}
