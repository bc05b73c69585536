import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { ApiKeysService } from './api-keys.service.js';

@Controller()
export class ApiKeysHandler {
  constructor(private readonly keys: ApiKeysService) {}

  @RpcHandler(S.createApiKey)
  create(req: RpcParsedRequest<typeof S.createApiKey>) {
    return this.keys.create(req.actor, req.body);
  }

  @RpcHandler(S.listApiKeys)
  list(req: RpcParsedRequest<typeof S.listApiKeys>) {
    return this.keys.list(req.actor, req.query);
  }

  @RpcHandler(S.revokeApiKey)
  revoke(req: RpcParsedRequest<typeof S.revokeApiKey>) {
    return this.keys.revoke(req.actor, req.id);
  }
}
