import { Controller } from '@nestjs/common';
import { ReplaySubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { ReplayBatchesService } from './replay-batches.service.js';
import { SessionReplaysService } from './session-replays.service.js';

@Controller()
export class ReplaysHandler {
  constructor(
    private readonly replays: SessionReplaysService,
    private readonly batches: ReplayBatchesService,
  ) {}

  @RpcHandler(S.start)
  start(req: RpcParsedRequest<typeof S.start>) {
    return this.replays.start(req.actor, req.id, req.body);
  }

  @RpcHandler(S.get)
  get(req: RpcParsedRequest<typeof S.get>) {
    return this.replays.get(req.actor, req.id);
  }

  @RpcHandler(S.list)
  list(req: RpcParsedRequest<typeof S.list>) {
    return this.replays.list(req.actor, req.query);
  }

  @RpcHandler(S.startBatch)
  startBatch(req: RpcParsedRequest<typeof S.startBatch>) {
    return this.batches.start(req.actor, req.id, req.body);
  }

  @RpcHandler(S.getBatch)
  getBatch(req: RpcParsedRequest<typeof S.getBatch>) {
    return this.batches.get(req.actor, req.id);
  }
}
