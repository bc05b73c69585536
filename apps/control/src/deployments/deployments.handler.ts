import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { DeploymentRunsService } from './deployment-runs.service.js';
import { DeploymentsService } from './deployments.service.js';

@Controller()
export class DeploymentsHandler {
  constructor(
    private readonly deployments: DeploymentsService,
    private readonly runs: DeploymentRunsService,
  ) {}

  @RpcHandler(S.createDeployment)
  createDeployment(req: RpcParsedRequest<typeof S.createDeployment>) {
    return this.deployments.create(req.actor, req.body);
  }

  @RpcHandler(S.getDeployment)
  getDeployment(req: RpcParsedRequest<typeof S.getDeployment>) {
    return this.deployments.get(req.actor, req.id);
  }

  @RpcHandler(S.updateDeployment)
  updateDeployment(req: RpcParsedRequest<typeof S.updateDeployment>) {
    return this.deployments.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.listDeployments)
  listDeployments(req: RpcParsedRequest<typeof S.listDeployments>) {
    return this.deployments.list(req.actor, req.query);
  }

  @RpcHandler(S.pauseDeployment)
  pauseDeployment(req: RpcParsedRequest<typeof S.pauseDeployment>) {
    return this.deployments.setPaused(req.actor, req.id, true);
  }

  @RpcHandler(S.unpauseDeployment)
  unpauseDeployment(req: RpcParsedRequest<typeof S.unpauseDeployment>) {
    return this.deployments.setPaused(req.actor, req.id, false);
  }

  @RpcHandler(S.archiveDeployment)
  archiveDeployment(req: RpcParsedRequest<typeof S.archiveDeployment>) {
    return this.deployments.archive(req.actor, req.id);
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
