import { Module } from '@nestjs/common';
import { ArchivedSessionsRepository } from './archived-sessions.repository.js';
import { EndedLogsRepository } from './ended-logs.repository.js';
import { StaleWorkRepository } from './stale-work.repository.js';
import { UpkeepHandler } from './upkeep.handler.js';

/** Retention and stale-work sweeps, run when the scheduler asks. */
@Module({
  controllers: [UpkeepHandler],
  providers: [EndedLogsRepository, ArchivedSessionsRepository, StaleWorkRepository],
})
export class UpkeepModule {}
