import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { AgentsService } from './agents.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class AgentsHandler {
  constructor(private readonly agents: AgentsService) {}

  @RpcHandler(S.createAgent)
  create(@RpcBody(S.createAgent) req: RpcParsedRequest<typeof S.createAgent>) {
    return this.agents.create(req.actor, req.body);
  }

  @RpcHandler(S.getAgent)
  get(@RpcBody(S.getAgent) req: RpcParsedRequest<typeof S.getAgent>) {
    return this.agents.get(req.actor, req.id, req.query.version);
  }

  @RpcHandler(S.listAgents)
  list(@RpcBody(S.listAgents) req: RpcParsedRequest<typeof S.listAgents>) {
    return this.agents.list(req.actor, req.query);
  }
}
