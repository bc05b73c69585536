import { Controller, UseInterceptors } from '@nestjs/common';
import { ThreadSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { ThreadsService } from './threads.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class ThreadsHandler {
  constructor(private readonly threads: ThreadsService) {}

  @RpcHandler(S.list)
  list(@RpcBody(S.list) req: RpcParsedRequest<typeof S.list>) {
    return this.threads.list(req.actor, req);
  }

  @RpcHandler(S.get)
  get(@RpcBody(S.get) req: RpcParsedRequest<typeof S.get>) {
    return this.threads.get(req.actor, req.sessionId, req.threadId);
  }

  @RpcHandler(S.archive)
  archive(@RpcBody(S.archive) req: RpcParsedRequest<typeof S.archive>) {
    return this.threads.archive(req.actor, req.sessionId, req.threadId);
  }
}
