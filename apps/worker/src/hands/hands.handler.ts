import { Controller, UseInterceptors } from '@nestjs/common';
import { HandsSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { HandsExecService } from './hands-exec.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class HandsHandler {
  constructor(private readonly hands: HandsExecService) {}

  @RpcHandler(S.exec)
  exec(@RpcBody(S.exec) req: RpcParsedRequest<typeof S.exec>) {
    return this.hands.execute(req);
  }
}
