import { Module } from '@nestjs/common';
import { ClusterHandsReader } from './cluster-hands.reader.js';
import { HandsStatusService } from './hands-status.service.js';
import { WorkAccess } from './work-access.js';
import { WorkHandler } from './work.handler.js';
import { WorkItemsRepository } from './work-items.repository.js';
import { WorkItemsService } from './work-items.service.js';
import { WorkLeaseService } from './work-lease.service.js';
import { WorkQueue } from './work-queue.service.js';
import { WorkWakeups } from './work-wakeups.js';
import { WorkersRepository } from './workers.repository.js';

/** Work items of self-hosted environments: the queue workers poll, and the item the turn runner opens. */
@Module({
  controllers: [WorkHandler],
  providers: [
    WorkItemsRepository,
    WorkersRepository,
    WorkAccess,
    WorkWakeups,
    WorkQueue,
    WorkLeaseService,
    WorkItemsService,
    HandsStatusService,
    ClusterHandsReader,
  ],
  exports: [WorkQueue],
})
export class WorkModule {}
