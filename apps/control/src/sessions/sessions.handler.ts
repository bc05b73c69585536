import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { SessionsService } from './sessions.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class SessionsHandler {
  constructor(private readonly sessions: SessionsService) {}

  @RpcHandler(S.createSession)
  create(@RpcBody(S.createSession) req: RpcParsedRequest<typeof S.createSession>) {
    return this.sessions.create(req.actor, req.body);
  }

  @RpcHandler(S.getSession)
  get(@RpcBody(S.getSession) req: RpcParsedRequest<typeof S.getSession>) {
    return this.sessions.get(req.actor, req.id);
  }
}
