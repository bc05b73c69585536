import { Controller } from '@nestjs/common';
import { ThreadSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { ThreadsService } from './threads.service.js';

@Controller()
export class ThreadsHandler {
  constructor(private readonly threads: ThreadsService) {}

  @RpcHandler(S.list)
  list(req: RpcParsedRequest<typeof S.list>) {
    return this.threads.list(req.actor, req);
  }

  @RpcHandler(S.get)
  get(req: RpcParsedRequest<typeof S.get>) {
    return this.threads.get(req.actor, req.sessionId, req.threadId);
  }

  @RpcHandler(S.archive)
  archive(req: RpcParsedRequest<typeof S.archive>) {
    return this.threads.archive(req.actor, req.sessionId, req.threadId);
  }
}
