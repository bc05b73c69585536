import { Module } from '@nestjs/common';
import { EndedLogsRepository } from './ended-logs.repository.js';
import { StaleWorkRepository } from './stale-work.repository.js';
import { UpkeepHandler } from './upkeep.handler.js';

/** Retention and stale-work sweeps, run when the scheduler asks. */
@Module({ controllers: [UpkeepHandler], providers: [EndedLogsRepository, StaleWorkRepository] })
export class UpkeepModule {}
