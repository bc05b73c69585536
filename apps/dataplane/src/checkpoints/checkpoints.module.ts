import { Module } from '@nestjs/common';
import { CheckpointsHandler } from './checkpoints.handler.js';
import { CheckpointsRepository } from './checkpoints.repository.js';
import { SessionBranches } from './session-branches.js';
import { TurnCheckpoints } from './turn-checkpoints.js';

/** Turn boundaries kept as checkpoints, and the fork and rollback to them. */
@Module({
  controllers: [CheckpointsHandler],
  providers: [CheckpointsRepository, SessionBranches, TurnCheckpoints],
  exports: [TurnCheckpoints, CheckpointsRepository],
})
export class CheckpointsModule {}
