import { Controller } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  WorkerAuthSubjects,
  type RpcParsedRequest,
} from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { EnvironmentKeysService } from './environment-keys.service.js';
import { EnvironmentsService } from './environments.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('environments', {
  create: S.createEnvironment,
  get: S.getEnvironment,
  update: R.updateEnvironment,
  list: R.listEnvironments,
  archive: R.archiveEnvironment,
  delete: R.deleteEnvironment,
})
@CatalogHandlers(
  'keys',
  {
    create: R.createEnvironmentKey,
    list: R.listEnvironmentKeys,
    revoke: R.revokeEnvironmentKey,
  },
  { parent: 'id', item: 'keyId' },
)
export class EnvironmentsHandler {
  constructor(
    readonly environments: EnvironmentsService,
    readonly keys: EnvironmentKeysService,
  ) {}

  @RpcHandler(WorkerAuthSubjects.verifyEnvironmentKey)
  verifyKey(req: RpcParsedRequest<typeof WorkerAuthSubjects.verifyEnvironmentKey>) {
    return this.keys.verify(req.key);
  }
}
