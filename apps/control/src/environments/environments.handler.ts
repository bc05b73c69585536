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
export class EnvironmentsHandler {
  constructor(
    readonly environments: EnvironmentsService,
    private readonly keys: EnvironmentKeysService,
  ) {}

  @RpcHandler(R.createEnvironmentKey)
  createKey(req: RpcParsedRequest<typeof R.createEnvironmentKey>) {
    return this.keys.create(req.actor, req.id, req.body);
  }

  @RpcHandler(R.listEnvironmentKeys)
  listKeys(req: RpcParsedRequest<typeof R.listEnvironmentKeys>) {
    return this.keys.list(req.actor, req.id);
  }

  @RpcHandler(WorkerAuthSubjects.verifyEnvironmentKey)
  verifyKey(req: RpcParsedRequest<typeof WorkerAuthSubjects.verifyEnvironmentKey>) {
    return this.keys.verify(req.key);
  }

  @RpcHandler(R.revokeEnvironmentKey)
  revokeKey(req: RpcParsedRequest<typeof R.revokeEnvironmentKey>) {
    return this.keys.revoke(req.actor, req.id, req.keyId);
  }
}
