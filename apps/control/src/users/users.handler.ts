import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { UsersService } from './users.service.js';

@Controller()
export class UsersHandler {
  constructor(private readonly users: UsersService) {}

  @RpcHandler(S.listUsers)
  list(req: RpcParsedRequest<typeof S.listUsers>) {
    return this.users.list(req.actor, req.query);
  }

  @RpcHandler(S.createUser)
  create(req: RpcParsedRequest<typeof S.createUser>) {
    return this.users.create(req.actor, req.body);
  }

  @RpcHandler(S.updateUser)
  update(req: RpcParsedRequest<typeof S.updateUser>) {
    return this.users.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.changePassword)
  changePassword(req: RpcParsedRequest<typeof S.changePassword>) {
    return this.users.changePassword(req.actor, req.body);
  }
}
