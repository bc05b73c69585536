import { Controller } from '@nestjs/common';
import { WorkSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { HandsStatusService } from './hands-status.service.js';
import { WorkItemsService } from './work-items.service.js';
import { WorkLeaseService } from './work-lease.service.js';

/** The dataplane's work-queue subjects (the gateway resolves environment keys and sessions tokens into principals). */
@Controller()
export class WorkHandler {
  constructor(
    private readonly lease: WorkLeaseService,
    private readonly items: WorkItemsService,
    private readonly hands: HandsStatusService,
  ) {}

  @RpcHandler(S.poll)
  poll(req: RpcParsedRequest<typeof S.poll>) {
    return this.lease.poll(req);
  }

  @RpcHandler(S.ack)
  ack(req: RpcParsedRequest<typeof S.ack>) {
    return this.lease.ack(req);
  }

  @RpcHandler(S.heartbeat)
  heartbeat(req: RpcParsedRequest<typeof S.heartbeat>) {
    return this.lease.heartbeat(req);
  }

  @RpcHandler(S.stop)
  stop(req: RpcParsedRequest<typeof S.stop>) {
    return this.lease.stop(req);
  }

  @RpcHandler(S.get)
  get(req: RpcParsedRequest<typeof S.get>) {
    return this.items.get(req);
  }

  @RpcHandler(S.update)
  update(req: RpcParsedRequest<typeof S.update>) {
    return this.items.update(req);
  }

  @RpcHandler(S.list)
  list(req: RpcParsedRequest<typeof S.list>) {
    return this.items.list(req);
  }

  @RpcHandler(S.stats)
  stats(req: RpcParsedRequest<typeof S.stats>) {
    return this.items.stats(req);
  }

  @RpcHandler(S.verifySessionsToken)
  verifySessionsToken(req: RpcParsedRequest<typeof S.verifySessionsToken>) {
    return this.items.verifySessionsToken(req.token);
  }

  @RpcHandler(S.pendingTools)
  pendingTools(req: RpcParsedRequest<typeof S.pendingTools>) {
    return this.hands.pendingTools(req);
  }

  @RpcHandler(S.handsStatus)
  handsStatus(req: RpcParsedRequest<typeof S.handsStatus>) {
    return this.hands.status(req);
  }
}
