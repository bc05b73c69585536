import { Controller } from '@nestjs/common';
import { ControlSubjects as R, ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentsService } from './agents.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('agents', {
  create: S.createAgent,
  list: S.listAgents,
  update: R.updateAgent,
  archive: R.archiveAgent,
})
export class AgentsHandler {
  constructor(readonly agents: AgentsService) {}

  @RpcHandler(S.getAgent)
  get(req: RpcParsedRequest<typeof S.getAgent>) {
    return this.agents.get(req.actor, req.id, req.query.version);
  }

  @RpcHandler(R.listAgentVersions)
  versions(req: RpcParsedRequest<typeof R.listAgentVersions>) {
    return this.agents.listVersions(req.actor, req.id, req.query);
  }
}
