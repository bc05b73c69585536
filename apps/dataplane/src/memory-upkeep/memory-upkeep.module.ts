import { Module } from '@nestjs/common';
import { TurnsModule } from '../turns/turns.module.js';
import { AgentMemoryService } from './agent-memory.service.js';
import { DreamModelService } from './dream-model.service.js';
import { MemoryUpkeepHandler } from './memory-upkeep.handler.js';

/** Scheduled consolidation and pruning of agents' daily memory, and dreams' model calls, run when asked. */
@Module({
  imports: [TurnsModule],
  controllers: [MemoryUpkeepHandler],
  providers: [AgentMemoryService, DreamModelService],
})
export class MemoryUpkeepModule {}
