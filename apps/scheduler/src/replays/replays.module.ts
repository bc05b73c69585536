import { Module } from '@nestjs/common';
import { ReplayBatchesService } from './replay-batches.service.js';
import { ReplayExecutor } from './replay.executor.js';
import { ReplayProcessor } from './replay.processor.js';
import { ReplaysHandler } from './replays.handler.js';
import { SessionReplaysRepository } from './session-replays.repository.js';
import { SessionReplaysService } from './session-replays.service.js';

@Module({
  controllers: [ReplaysHandler],
  providers: [
    SessionReplaysService,
    ReplayBatchesService,
    ReplayExecutor,
    ReplayProcessor,
    SessionReplaysRepository,
  ],
})
export class ReplaysModule {}
