import { Controller } from '@nestjs/common';
import { UsageSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { UsageQueryService } from './usage-query.service.js';

@Controller()
export class UsageHandler {
  constructor(private readonly usage: UsageQueryService) {}

  @RpcHandler(S.query)
  query(req: RpcParsedRequest<typeof S.query>) {
    return this.usage.query(req.actor, req.query);
  }
}
