import { Controller, UseInterceptors } from '@nestjs/common';
import { SchedulerSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { MultiagentRunService } from './multiagent-run.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class MultiagentHandler {
  constructor(private readonly multiagent: MultiagentRunService) {}

  @RpcHandler(S.runMultiagent)
  run(@RpcBody(S.runMultiagent) req: RpcParsedRequest<typeof S.runMultiagent>) {
    return this.multiagent.run(req);
  }
}
