import { Controller } from '@nestjs/common';
import { ControlSubjects as R, ControlSubjects as S } from '@agentry/contracts';
import { SessionsService } from './sessions.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('sessions', {
  create: S.createSession,
  get: S.getSession,
  list: R.listSessions,
  update: R.updateSession,
  restore: R.restoreSession,
  archive: R.archiveSession,
  delete: R.deleteSession,
})
export class SessionsHandler {
  constructor(readonly sessions: SessionsService) {}
}
