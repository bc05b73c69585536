import { Controller } from '@nestjs/common';
import { WorkSubjects as S } from '@agentry/contracts';
import { forward, RpcForwarders } from '@agentry/platform';
import { HandsStatusService } from './hands-status.service.js';
import { WorkItemsService } from './work-items.service.js';
import { WorkLeaseService } from './work-lease.service.js';

/**
 * The dataplane's work-queue subjects (the gateway resolves environment keys and sessions tokens into
 * principals): a worker's lease of an item, the items themselves, and what the Hands are doing.
 */
@Controller()
@RpcForwarders<WorkHandler>({
  poll: forward(S.poll, (h, req) => h.lease.poll(req)),
  ack: forward(S.ack, (h, req) => h.lease.ack(req)),
  heartbeat: forward(S.heartbeat, (h, req) => h.lease.heartbeat(req)),
  stop: forward(S.stop, (h, req) => h.lease.stop(req)),
  get: forward(S.get, (h, req) => h.items.get(req)),
  update: forward(S.update, (h, req) => h.items.update(req)),
  list: forward(S.list, (h, req) => h.items.list(req)),
  stats: forward(S.stats, (h, req) => h.items.stats(req)),
  verifySessionsToken: forward(S.verifySessionsToken, (h, req) => h.items.verifySessionsToken(req.token)),
  pendingTools: forward(S.pendingTools, (h, req) => h.hands.pendingTools(req)),
  handsStatus: forward(S.handsStatus, (h, req) => h.hands.status(req)),
})
export class WorkHandler {
  constructor(
    readonly lease: WorkLeaseService,
    readonly items: WorkItemsService,
    readonly hands: HandsStatusService,
  ) {}
}
