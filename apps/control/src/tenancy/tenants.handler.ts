import { Controller } from '@nestjs/common';
import { ControlSubjects as T, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { NamespaceMembersService } from './namespace-members.service.js';
import { TenantsService } from './tenants.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

/** Tenants (installation administration) and namespace membership (tenant administration). */
@Controller()
@CatalogHandlers('tenants', {
  create: T.createTenant,
  list: T.listTenants,
})
export class TenantsHandler {
  constructor(
    readonly tenants: TenantsService,
    private readonly members: NamespaceMembersService,
  ) {}

  @RpcHandler(T.listMembers)
  listMembers(req: RpcParsedRequest<typeof T.listMembers>) {
    return this.members.list(req.actor, req.id, req.query);
  }

  @RpcHandler(T.addMember)
  addMember(req: RpcParsedRequest<typeof T.addMember>) {
    return this.members.add(req.actor, req.id, req.body);
  }

  @RpcHandler(T.updateMember)
  updateMember(req: RpcParsedRequest<typeof T.updateMember>) {
    return this.members.update(req.actor, req.id, req.userId, req.body);
  }

  @RpcHandler(T.removeMember)
  removeMember(req: RpcParsedRequest<typeof T.removeMember>) {
    return this.members.remove(req.actor, req.id, req.userId);
  }
}
