import { Controller } from '@nestjs/common';
import { SchedulerSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { MultiagentRunsService } from './multiagent-runs.service.js';

@Controller()
export class MultiagentHandler {
  constructor(private readonly runs: MultiagentRunsService) {}

  @RpcHandler(S.startMultiagentRun)
  start(req: RpcParsedRequest<typeof S.startMultiagentRun>) {
    return this.runs.start(req);
  }

  @RpcHandler(S.getMultiagentRun)
  get(req: RpcParsedRequest<typeof S.getMultiagentRun>) {
    return this.runs.get(req.actor, req.id);
  }

  @RpcHandler(S.awaitMultiagentRun)
  await(req: RpcParsedRequest<typeof S.awaitMultiagentRun>) {
    return this.runs.awaitCompletion(req.actor, req.id, req.wait_ms);
  }
}
