import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentsService } from './agents.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('agents', {
  create: S.createAgent,
  list: S.listAgents,
  update: S.updateAgent,
  archive: S.archiveAgent,
})
export class AgentsHandler {
  constructor(readonly agents: AgentsService) {}

  @RpcHandler(S.getAgent)
  get(req: RpcParsedRequest<typeof S.getAgent>) {
    return this.agents.get(req.actor, req.id, req.query.version);
  }

  @RpcHandler(S.listAgentVersions)
  versions(req: RpcParsedRequest<typeof S.listAgentVersions>) {
    return this.agents.listVersions(req.actor, req.id, req.query);
  }
}
