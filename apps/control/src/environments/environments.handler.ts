import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { EnvironmentsService } from './environments.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class EnvironmentsHandler {
  constructor(private readonly environments: EnvironmentsService) {}

  @RpcHandler(S.createEnvironment)
  create(@RpcBody(S.createEnvironment) req: RpcParsedRequest<typeof S.createEnvironment>) {
    return this.environments.create(req.actor, req.body);
  }

  @RpcHandler(S.getEnvironment)
  get(@RpcBody(S.getEnvironment) req: RpcParsedRequest<typeof S.getEnvironment>) {
    return this.environments.get(req.actor, req.id);
  }
}
