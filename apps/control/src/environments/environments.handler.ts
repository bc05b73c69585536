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

@Controller()
export class EnvironmentsHandler {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly keys: EnvironmentKeysService,
  ) {}

  @RpcHandler(S.createEnvironment)
  create(req: RpcParsedRequest<typeof S.createEnvironment>) {
    return this.environments.create(req.actor, req.body);
  }

  @RpcHandler(S.getEnvironment)
  get(req: RpcParsedRequest<typeof S.getEnvironment>) {
    return this.environments.get(req.actor, req.id);
  }

  @RpcHandler(R.updateEnvironment)
  update(req: RpcParsedRequest<typeof R.updateEnvironment>) {
    return this.environments.update(req.actor, req.id, req.body);
  }

  @RpcHandler(R.listEnvironments)
  list(req: RpcParsedRequest<typeof R.listEnvironments>) {
    return this.environments.list(req.actor, req.query);
  }

  @RpcHandler(R.archiveEnvironment)
  archive(req: RpcParsedRequest<typeof R.archiveEnvironment>) {
    return this.environments.archive(req.actor, req.id);
  }

  @RpcHandler(R.deleteEnvironment)
  delete(req: RpcParsedRequest<typeof R.deleteEnvironment>) {
    return this.environments.delete(req.actor, req.id);
  }

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
