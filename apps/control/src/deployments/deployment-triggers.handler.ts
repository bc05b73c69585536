import { Controller } from '@nestjs/common';
import { DeploymentRunSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { DeploymentRunStarter } from './deployment-run-starter.service.js';
import { DeploymentWebhooksService } from './deployment-webhooks.service.js';

/** The control half of running deployments; the scheduler calls these. */
@Controller()
export class DeploymentTriggersHandler {
  constructor(
    private readonly starter: DeploymentRunStarter,
    private readonly webhooks: DeploymentWebhooksService,
  ) {}

  @RpcHandler(S.start)
  start(req: RpcParsedRequest<typeof S.start>) {
    return this.starter.start(req.actor, req);
  }

  @RpcHandler(S.finish)
  finish(req: RpcParsedRequest<typeof S.finish>) {
    return this.starter.finish(req.actor, req.run_id, req.error);
  }

  @RpcHandler(S.setWebhook)
  setWebhook(req: RpcParsedRequest<typeof S.setWebhook>) {
    return this.webhooks.set(req.actor, req.id, req.enabled);
  }

  @RpcHandler(S.resolveWebhook)
  resolveWebhook(req: RpcParsedRequest<typeof S.resolveWebhook>) {
    return this.webhooks.resolve(req.token);
  }
}
