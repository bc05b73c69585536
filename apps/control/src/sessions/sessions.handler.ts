import { Controller } from '@nestjs/common';
import { ControlSubjects as R, ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { SessionsService } from './sessions.service.js';

@Controller()
export class SessionsHandler {
  constructor(private readonly sessions: SessionsService) {}

  @RpcHandler(S.createSession)
  create(req: RpcParsedRequest<typeof S.createSession>) {
    return this.sessions.create(req.actor, req.body);
  }

  @RpcHandler(S.getSession)
  get(req: RpcParsedRequest<typeof S.getSession>) {
    return this.sessions.get(req.actor, req.id);
  }

  @RpcHandler(R.listSessions)
  list(req: RpcParsedRequest<typeof R.listSessions>) {
    return this.sessions.list(req.actor, req.query);
  }

  @RpcHandler(R.updateSession)
  update(req: RpcParsedRequest<typeof R.updateSession>) {
    return this.sessions.update(req.actor, req.id, req.body);
  }

  @RpcHandler(R.restoreSession)
  restore(req: RpcParsedRequest<typeof R.restoreSession>) {
    return this.sessions.restore(req.actor, req.id);
  }

  @RpcHandler(R.archiveSession)
  archive(req: RpcParsedRequest<typeof R.archiveSession>) {
    return this.sessions.archive(req.actor, req.id);
  }

  @RpcHandler(R.deleteSession)
  delete(req: RpcParsedRequest<typeof R.deleteSession>) {
    return this.sessions.delete(req.actor, req.id);
  }
}
