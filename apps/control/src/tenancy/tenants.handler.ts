import { Controller } from '@nestjs/common';
import { ControlSubjects as T } from '@agentry/contracts';
import { NamespaceMembersService } from './namespace-members.service.js';
import { TenantsService } from './tenants.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

/** Tenants (installation administration) and namespace membership (tenant administration). */
@Controller()
@CatalogHandlers('tenants', {
  create: T.createTenant,
  list: T.listTenants,
})
@CatalogHandlers(
  'members',
  {
    list: T.listMembers,
    add: T.addMember,
    update: T.updateMember,
    remove: T.removeMember,
  },
  { parent: 'id', item: 'userId' },
)
export class TenantsHandler {
  constructor(
    readonly tenants: TenantsService,
    readonly members: NamespaceMembersService,
  ) {}
}
