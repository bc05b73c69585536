import { Controller } from '@nestjs/common';
import { SessionResourceSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SessionResourcesService } from './session-resources.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers(
  'resources',
  {
    list: S.list,
    add: S.add,
    get: S.get,
    update: S.update,
    delete: S.delete,
  },
  { parent: 'sessionId' },
)
export class SessionResourcesHandler {
  constructor(readonly resources: SessionResourcesService) {}

  /** Internal run-time read; the reply carries tokens, so nothing here logs it. */
  @RpcHandler(S.resolve)
  async resolve(req: RpcParsedRequest<typeof S.resolve>) {
    return { resources: await this.resources.resolve(req.tenantId, req.sessionId) };
  }

  /** Internal write-back of a session's read-write memory store mount (from the worker holding the session). */
  @RpcHandler(S.writeMemories)
  async writeMemories(req: RpcParsedRequest<typeof S.writeMemories>) {
    return { written: await this.resources.writeMemories(req) };
  }
}
