import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { DeploymentRunsService } from './deployment-runs.service.js';
import { DeploymentsService } from './deployments.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('deployments', {
  create: S.createDeployment,
  get: S.getDeployment,
  update: S.updateDeployment,
  list: S.listDeployments,
  archive: S.archiveDeployment,
})
export class DeploymentsHandler {
  constructor(
    readonly deployments: DeploymentsService,
    private readonly runs: DeploymentRunsService,
  ) {}

  @RpcHandler(S.pauseDeployment)
  pauseDeployment(req: RpcParsedRequest<typeof S.pauseDeployment>) {
    return this.deployments.setPaused(req.actor, req.id, true);
  }

  @RpcHandler(S.unpauseDeployment)
  unpauseDeployment(req: RpcParsedRequest<typeof S.unpauseDeployment>) {
    return this.deployments.setPaused(req.actor, req.id, false);
  }

  @RpcHandler(S.getDeploymentRun)
  getDeploymentRun(req: RpcParsedRequest<typeof S.getDeploymentRun>) {
    return this.runs.get(req.actor, req.id);
  }

  @RpcHandler(S.listDeploymentRuns)
  listDeploymentRuns(req: RpcParsedRequest<typeof S.listDeploymentRuns>) {
    return this.runs.list(req.actor, req.query);
  }
}
