import { Controller } from '@nestjs/common';
import { SchedulerSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { DeploymentRunner } from './deployment-runner.service.js';

@Controller()
export class DeploymentRunsHandler {
  constructor(private readonly runner: DeploymentRunner) {}

  @RpcHandler(S.runDeployment)
  run(req: RpcParsedRequest<typeof S.runDeployment>) {
    return this.runner.run(req.actor, {
      id: req.id,
      trigger: req.trigger,
      initial_events: req.initial_events,
    });
  }

  @RpcHandler(S.runDeploymentByWebhook)
  runByWebhook(req: RpcParsedRequest<typeof S.runDeploymentByWebhook>) {
    return this.runner.runByWebhook(req.token, req.initial_events);
  }
}
