import { Module } from '@nestjs/common';
import { MemoriesRepository } from './memories.repository.js';
import { MemoriesService } from './memories.service.js';
import { MemoryStoresHandler } from './memory-stores.handler.js';
import { MemoryStoresRepository } from './memory-stores.repository.js';
import { MemoryStoresService } from './memory-stores.service.js';
import { MemoryVersionsRepository } from './memory-versions.repository.js';
import { MemoryVersionsService } from './memory-versions.service.js';

@Module({
  controllers: [MemoryStoresHandler],
  providers: [
    MemoryStoresRepository,
    MemoryStoresService,
    MemoriesRepository,
    MemoriesService,
    MemoryVersionsRepository,
    MemoryVersionsService,
  ],
  exports: [MemoryStoresService, MemoriesService, MemoriesRepository],
})
export class MemoryStoresModule {}
