import { Module } from '@nestjs/common';
import { MemoryStoresModule } from '../memory-stores/memory-stores.module.js';
import { DreamRunner } from './dream-runner.service.js';
import { DreamsHandler } from './dreams.handler.js';
import { DreamsRepository } from './dreams.repository.js';
import { DreamsService } from './dreams.service.js';

/** CMA dreams over memory stores: the routes' handlers and the job that runs each dream. */
@Module({
  imports: [MemoryStoresModule],
  controllers: [DreamsHandler],
  providers: [DreamsRepository, DreamsService, DreamRunner],
})
export class DreamsModule {}
