import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { UsersService } from './users.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('users', {
  list: S.listUsers,
  create: S.createUser,
  update: S.updateUser,
})
export class UsersHandler {
  constructor(readonly users: UsersService) {}

  @RpcHandler(S.changePassword)
  changePassword(req: RpcParsedRequest<typeof S.changePassword>) {
    return this.users.changePassword(req.actor, req.body);
  }
}
