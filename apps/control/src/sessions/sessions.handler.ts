import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SessionsService } from './sessions.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('sessions', {
  create: S.createSession,
  get: S.getSession,
  list: S.listSessions,
  update: S.updateSession,
  restore: S.restoreSession,
  archive: S.archiveSession,
  delete: S.deleteSession,
})
export class SessionsHandler {
  constructor(readonly sessions: SessionsService) {}

  @RpcHandler(S.forkSession)
  fork(req: RpcParsedRequest<typeof S.forkSession>) {
    return this.sessions.fork(req.actor, req.id, req.body);
  }
}
