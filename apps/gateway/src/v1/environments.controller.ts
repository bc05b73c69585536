import { Controller } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateEnvironmentKeyRequestSchema,
  EnvironmentBuildSubjects,
} from '@agentry/contracts';
import { CreateEnvironmentRequestSchema, UpdateEnvironmentRequestSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { archivableRoutes } from './archivable-routes.js';

@Controller('v1/environments')
export class EnvironmentsController extends rpcRoutes({
  ...archivableRoutes({
    create: S.createEnvironment,
    createBody: CreateEnvironmentRequestSchema,
    list: S.listEnvironments,
    get: S.getEnvironment,
    update: S.updateEnvironment,
    updateBody: UpdateEnvironmentRequestSchema,
    archive: S.archiveEnvironment,
    delete: S.deleteEnvironment,
  }),
  /** A new worker key, shown once; `{"revoke_existing": true}` rotates (revokes the others). */
  createKey: {
    route: 'POST :id/keys',
    subject: S.createEnvironmentKey,
    body: CreateEnvironmentKeyRequestSchema.default({}),
  },
  listKeys: { route: 'GET :id/keys', subject: S.listEnvironmentKeys },
  revokeKey: { route: 'POST :id/keys/:keyId/revoke', subject: S.revokeEnvironmentKey },
  /** Agentry extension: the output of the environment's last image build (its `agentry_build`). */
  buildLog: { route: 'GET :id/build/log', subject: EnvironmentBuildSubjects.getLog },
}) {}
