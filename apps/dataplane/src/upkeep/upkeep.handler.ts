import { Controller } from '@nestjs/common';
import { UpkeepSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { ArchivedSessionsRepository } from './archived-sessions.repository.js';
import { EndedLogsRepository } from './ended-logs.repository.js';
import { StaleWorkRepository } from './stale-work.repository.js';

/** Sweeps the scheduler times: the dataplane owns the rows they change. */
@Controller()
export class UpkeepHandler {
  constructor(
    private readonly endedLogs: EndedLogsRepository,
    private readonly archivedSessions: ArchivedSessionsRepository,
    private readonly staleWork: StaleWorkRepository,
  ) {}

  @RpcHandler(S.purgeEndedLogs)
  purgeEndedLogs(req: RpcParsedRequest<typeof S.purgeEndedLogs>) {
    return this.endedLogs.purgeEnded(new Date(req.cutoff), req.limit);
  }

  @RpcHandler(S.purgeArchivedSessions)
  async purgeArchivedSessions(req: RpcParsedRequest<typeof S.purgeArchivedSessions>) {
    return { sessions: await this.archivedSessions.purgeArchived(new Date(req.cutoff), req.limit) };
  }

  @RpcHandler(S.reclaimExpiredWork)
  async reclaimExpiredWork(req: RpcParsedRequest<typeof S.reclaimExpiredWork>) {
    return { reclaimed: await this.staleWork.reclaimExpired(req.limit) };
  }

  @RpcHandler(S.requeueAwaitingAction)
  async requeueAwaitingAction(req: RpcParsedRequest<typeof S.requeueAwaitingAction>) {
    return { work: await this.staleWork.requeueIfAwaitingAction(req.sessionId) };
  }
}
