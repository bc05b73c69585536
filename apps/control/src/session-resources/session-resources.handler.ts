import { Controller } from '@nestjs/common';
import { SessionResourceSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SessionResourcesService } from './session-resources.service.js';

@Controller()
export class SessionResourcesHandler {
  constructor(private readonly resources: SessionResourcesService) {}

  @RpcHandler(S.list)
  list(req: RpcParsedRequest<typeof S.list>) {
    return this.resources.list(req.actor, req.sessionId, req.query);
  }

  @RpcHandler(S.add)
  add(req: RpcParsedRequest<typeof S.add>) {
    return this.resources.add(req.actor, req.sessionId, req.body);
  }

  @RpcHandler(S.get)
  get(req: RpcParsedRequest<typeof S.get>) {
    return this.resources.get(req.actor, req.sessionId, req.id);
  }

  @RpcHandler(S.update)
  update(req: RpcParsedRequest<typeof S.update>) {
    return this.resources.update(req.actor, req.sessionId, req.id, req.body);
  }

  @RpcHandler(S.delete)
  delete(req: RpcParsedRequest<typeof S.delete>) {
    return this.resources.delete(req.actor, req.sessionId, req.id);
  }

  /** Internal run-time read; the reply carries tokens, so nothing here logs it. */
  @RpcHandler(S.resolve)
  async resolve(req: RpcParsedRequest<typeof S.resolve>) {
    return { resources: await this.resources.resolve(req.tenantId, req.sessionId) };
  }

  /** Internal write-back of a session's read-write memory store mount (from the worker holding the session). */
  @RpcHandler(S.writeMemories)
  async writeMemories(req: RpcParsedRequest<typeof S.writeMemories>) {
    return { written: await this.resources.writeMemories(req) };
  }
}
