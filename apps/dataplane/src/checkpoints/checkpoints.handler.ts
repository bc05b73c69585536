import { Controller } from '@nestjs/common';
import {
  AppError,
  CheckpointSubjects as S,
  type Checkpoint,
  type RpcParsedRequest,
} from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { CheckpointsRepository } from './checkpoints.repository.js';
import { SessionBranches } from './session-branches.js';

/** A session's checkpoints, and the fork and rollback to one (Agentry extension). */
@Controller()
export class CheckpointsHandler {
  constructor(
    private readonly checkpoints: CheckpointsRepository,
    private readonly branches: SessionBranches,
  ) {}

  @RpcHandler(S.list)
  async list({ actor, id, query }: RpcParsedRequest<typeof S.list>) {
    if (!(await this.checkpoints.visible(id, actor.tenantId, actor.namespaceId)))
      throw new AppError('NOT_FOUND', `Session ${id} not found`);
    const rows = await this.checkpoints.list(id, query.limit);
    const data: Checkpoint[] = rows.map((r) => ({
      type: 'session_checkpoint',
      id: r.id,
      session_id: r.session_id,
      event_id: r.event_id,
      seq: r.seq,
      created_at: r.created_at.toISOString(),
    }));
    return { data, next_page: null };
  }

  @RpcHandler(S.fork)
  fork(req: RpcParsedRequest<typeof S.fork>) {
    return this.branches.fork(req);
  }

  @RpcHandler(S.rollback)
  rollback(req: RpcParsedRequest<typeof S.rollback>) {
    return this.branches.rollback(req);
  }
}
