import { Controller } from '@nestjs/common';
import { ControlSubjects as R, ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentsService } from './agents.service.js';

@Controller()
export class AgentsHandler {
  constructor(private readonly agents: AgentsService) {}

  @RpcHandler(S.createAgent)
  create(req: RpcParsedRequest<typeof S.createAgent>) {
    return this.agents.create(req.actor, req.body);
  }

  @RpcHandler(S.getAgent)
  get(req: RpcParsedRequest<typeof S.getAgent>) {
    return this.agents.get(req.actor, req.id, req.query.version);
  }

  @RpcHandler(S.listAgents)
  list(req: RpcParsedRequest<typeof S.listAgents>) {
    return this.agents.list(req.actor, req.query);
  }

  @RpcHandler(R.updateAgent)
  update(req: RpcParsedRequest<typeof R.updateAgent>) {
    return this.agents.update(req.actor, req.id, req.body);
  }

  @RpcHandler(R.archiveAgent)
  archive(req: RpcParsedRequest<typeof R.archiveAgent>) {
    return this.agents.archive(req.actor, req.id);
  }

  @RpcHandler(R.listAgentVersions)
  versions(req: RpcParsedRequest<typeof R.listAgentVersions>) {
    return this.agents.listVersions(req.actor, req.id, req.query);
  }
}
