import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module.js';
import { MemoryStoresModule } from '../memory-stores/memory-stores.module.js';
import { VaultsModule } from '../vaults/vaults.module.js';
import { SessionResourceTokensRepository } from './session-resource-tokens.repository.js';
import { SessionResourcesHandler } from './session-resources.handler.js';
import { SessionResourcesRepository } from './session-resources.repository.js';
import { SessionResourcesService } from './session-resources.service.js';

@Module({
  imports: [VaultsModule, FilesModule, MemoryStoresModule],
  controllers: [SessionResourcesHandler],
  providers: [SessionResourcesService, SessionResourcesRepository, SessionResourceTokensRepository],
  exports: [SessionResourcesService],
})
export class SessionResourcesModule {}
