import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlAccessSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { UsersService } from './users.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class UsersHandler {
  constructor(private readonly users: UsersService) {}

  @RpcHandler(S.listUsers)
  list(@RpcBody(S.listUsers) req: RpcParsedRequest<typeof S.listUsers>) {
    return this.users.list(req.actor, req.query);
  }

  @RpcHandler(S.createUser)
  create(@RpcBody(S.createUser) req: RpcParsedRequest<typeof S.createUser>) {
    return this.users.create(req.actor, req.body);
  }

  @RpcHandler(S.updateUser)
  update(@RpcBody(S.updateUser) req: RpcParsedRequest<typeof S.updateUser>) {
    return this.users.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.changePassword)
  changePassword(@RpcBody(S.changePassword) req: RpcParsedRequest<typeof S.changePassword>) {
    return this.users.changePassword(req.actor, req.body);
  }
}
