import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AgentSharesService } from './agent-shares.service.js';
import { NamespacesService } from './namespaces.service.js';

@Controller()
export class TenancyHandler {
  constructor(
    private readonly namespaces: NamespacesService,
    private readonly shares: AgentSharesService,
  ) {}

  @RpcHandler(S.listNamespaces)
  listNamespaces(req: RpcParsedRequest<typeof S.listNamespaces>) {
    return this.namespaces.list(req.actor);
  }

  @RpcHandler(S.createNamespace)
  createNamespace(req: RpcParsedRequest<typeof S.createNamespace>) {
    return this.namespaces.create(req.actor, req.body);
  }

  @RpcHandler(S.shareAgent)
  share(req: RpcParsedRequest<typeof S.shareAgent>) {
    return this.shares.share(req.actor, req.id, req.body);
  }

  @RpcHandler(S.unshareAgent)
  unshare(req: RpcParsedRequest<typeof S.unshareAgent>) {
    return this.shares.unshare(req.actor, req.id, req.granteeId);
  }

  @RpcHandler(S.listAgentShares)
  listShares(req: RpcParsedRequest<typeof S.listAgentShares>) {
    return this.shares.list(req.actor, req.id);
  }

  @RpcHandler(S.checkAgentAccess)
  check(req: RpcParsedRequest<typeof S.checkAgentAccess>) {
    return this.shares.check(req.actor, req.id, req.permission);
  }
}
