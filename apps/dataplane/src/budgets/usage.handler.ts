import { Controller, UseInterceptors } from '@nestjs/common';
import { UsageSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { UsageQueryService } from './usage-query.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class UsageHandler {
  constructor(private readonly usage: UsageQueryService) {}

  @RpcHandler(S.query)
  query(@RpcBody(S.query) req: RpcParsedRequest<typeof S.query>) {
    return this.usage.query(req.actor, req.query);
  }
}
