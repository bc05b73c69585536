import { Controller, UseInterceptors } from '@nestjs/common';
import { SessionResourceSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { SessionResourcesService } from './session-resources.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class SessionResourcesHandler {
  constructor(private readonly resources: SessionResourcesService) {}

  @RpcHandler(S.list)
  list(@RpcBody(S.list) req: RpcParsedRequest<typeof S.list>) {
    return this.resources.list(req.actor, req.sessionId, req.query);
  }

  @RpcHandler(S.add)
  add(@RpcBody(S.add) req: RpcParsedRequest<typeof S.add>) {
    return this.resources.add(req.actor, req.sessionId, req.body);
  }

  @RpcHandler(S.get)
  get(@RpcBody(S.get) req: RpcParsedRequest<typeof S.get>) {
    return this.resources.get(req.actor, req.sessionId, req.id);
  }

  @RpcHandler(S.update)
  update(@RpcBody(S.update) req: RpcParsedRequest<typeof S.update>) {
    return this.resources.update(req.actor, req.sessionId, req.id, req.body);
  }

  @RpcHandler(S.delete)
  delete(@RpcBody(S.delete) req: RpcParsedRequest<typeof S.delete>) {
    return this.resources.delete(req.actor, req.sessionId, req.id);
  }

  /** Internal run-time read; the reply carries tokens, so nothing here logs it. */
  @RpcHandler(S.resolve)
  async resolve(@RpcBody(S.resolve) req: RpcParsedRequest<typeof S.resolve>) {
    return { resources: await this.resources.resolve(req.tenantId, req.sessionId) };
  }

  /** Internal write-back of a session's read-write memory store mount (from the worker holding the session). */
  @RpcHandler(S.writeMemories)
  async writeMemories(@RpcBody(S.writeMemories) req: RpcParsedRequest<typeof S.writeMemories>) {
    return { written: await this.resources.writeMemories(req) };
  }
}
