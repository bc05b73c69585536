import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlAccessSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { AgentSharesService } from './agent-shares.service.js';
import { NamespacesService } from './namespaces.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class TenancyHandler {
  constructor(
    private readonly namespaces: NamespacesService,
    private readonly shares: AgentSharesService,
  ) {}

  @RpcHandler(S.listNamespaces)
  listNamespaces(@RpcBody(S.listNamespaces) req: RpcParsedRequest<typeof S.listNamespaces>) {
    return this.namespaces.list(req.actor);
  }

  @RpcHandler(S.createNamespace)
  createNamespace(@RpcBody(S.createNamespace) req: RpcParsedRequest<typeof S.createNamespace>) {
    return this.namespaces.create(req.actor, req.body);
  }

  @RpcHandler(S.shareAgent)
  share(@RpcBody(S.shareAgent) req: RpcParsedRequest<typeof S.shareAgent>) {
    return this.shares.share(req.actor, req.id, req.body);
  }

  @RpcHandler(S.unshareAgent)
  unshare(@RpcBody(S.unshareAgent) req: RpcParsedRequest<typeof S.unshareAgent>) {
    return this.shares.unshare(req.actor, req.id, req.granteeId);
  }

  @RpcHandler(S.listAgentShares)
  listShares(@RpcBody(S.listAgentShares) req: RpcParsedRequest<typeof S.listAgentShares>) {
    return this.shares.list(req.actor, req.id);
  }

  @RpcHandler(S.checkAgentAccess)
  check(@RpcBody(S.checkAgentAccess) req: RpcParsedRequest<typeof S.checkAgentAccess>) {
    return this.shares.check(req.actor, req.id, req.permission);
  }
}
