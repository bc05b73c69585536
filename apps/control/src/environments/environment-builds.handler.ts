import { Controller } from '@nestjs/common';
import { EnvironmentBuildSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { EnvironmentBuildsService } from './environment-builds.service.js';

/** The Hands' questions and reports about environment images, and the public build log. */
@Controller()
export class EnvironmentBuildsHandler {
  constructor(private readonly builds: EnvironmentBuildsService) {}

  @RpcHandler(S.handsConfig)
  handsConfig(req: RpcParsedRequest<typeof S.handsConfig>) {
    return this.builds.handsConfig(req.tenantId, req.sessionId);
  }

  @RpcHandler(S.report)
  report(req: RpcParsedRequest<typeof S.report>) {
    return this.builds.report(req);
  }

  @RpcHandler(S.getLog)
  log(req: RpcParsedRequest<typeof S.getLog>) {
    return this.builds.log(req.actor, req.id);
  }
}
