import { Controller } from '@nestjs/common';
import { SessionRowSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { CheckpointsRepository } from '../checkpoints/checkpoints.repository.js';
import { SessionRowsRepository } from './session-rows.repository.js';

/** Control's writes of session definitions: the dataplane owns the rows, control owns the rules. */
@Controller()
export class SessionRowsHandler {
  constructor(
    private readonly rows: SessionRowsRepository,
    private readonly checkpoints: CheckpointsRepository,
  ) {}

  @RpcHandler(S.insert)
  async insert(req: RpcParsedRequest<typeof S.insert>) {
    return { id: await this.rows.insert(req.actor, req.session) };
  }

  @RpcHandler(S.update)
  async update(req: RpcParsedRequest<typeof S.update>) {
    return { changed: await this.rows.update(req.actor, req.id, req.changes) };
  }

  @RpcHandler(S.archive)
  async archive(req: RpcParsedRequest<typeof S.archive>) {
    return { changed: await this.rows.archive(req.actor, req.id) };
  }

  @RpcHandler(S.restore)
  async restore(req: RpcParsedRequest<typeof S.restore>) {
    return { changed: await this.rows.restore(req.actor, req.id) };
  }

  @RpcHandler(S.delete)
  async delete(req: RpcParsedRequest<typeof S.delete>) {
    const changed = await this.rows.delete(req.actor, req.id);
    // Its checkpoints went with the row; the content only they named goes now.
    if (changed) await this.checkpoints.sweep(req.actor.tenantId);
    return { changed };
  }

  @RpcHandler(S.replaceResources)
  async replaceResources(req: RpcParsedRequest<typeof S.replaceResources>) {
    return { changed: await this.rows.replaceResources(req.actor, req.id, req.expected, req.next) };
  }

  @RpcHandler(S.deleteForEnvironment)
  deleteForEnvironment(req: RpcParsedRequest<typeof S.deleteForEnvironment>) {
    return this.rows.deleteForEnvironment(req.actor, req.environmentId);
  }
}
