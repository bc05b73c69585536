import { Controller, UseInterceptors } from '@nestjs/common';
import { SchedulerSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { MultiagentRunsService } from './multiagent-runs.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class MultiagentHandler {
  constructor(private readonly runs: MultiagentRunsService) {}

  @RpcHandler(S.startMultiagentRun)
  start(@RpcBody(S.startMultiagentRun) req: RpcParsedRequest<typeof S.startMultiagentRun>) {
    return this.runs.start(req);
  }

  @RpcHandler(S.getMultiagentRun)
  get(@RpcBody(S.getMultiagentRun) req: RpcParsedRequest<typeof S.getMultiagentRun>) {
    return this.runs.get(req.actor, req.id);
  }

  @RpcHandler(S.awaitMultiagentRun)
  await(@RpcBody(S.awaitMultiagentRun) req: RpcParsedRequest<typeof S.awaitMultiagentRun>) {
    return this.runs.awaitCompletion(req.actor, req.id, req.wait_ms);
  }
}
