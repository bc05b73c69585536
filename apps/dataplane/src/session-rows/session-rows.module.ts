import { Module } from '@nestjs/common';
import { CheckpointsModule } from '../checkpoints/checkpoints.module.js';
import { SessionRowsHandler } from './session-rows.handler.js';
import { SessionRowsRepository } from './session-rows.repository.js';

/** Session definitions stored on control's request. */
@Module({
  imports: [CheckpointsModule],
  controllers: [SessionRowsHandler],
  providers: [SessionRowsRepository],
})
export class SessionRowsModule {}
