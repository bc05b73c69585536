import { Module } from '@nestjs/common';
import { VaultsModule } from '../vaults/vaults.module.js';
import { AgentsModule } from '../agents/agents.module.js';
import { EnvironmentsModule } from '../environments/environments.module.js';
import { SessionResourcesModule } from '../session-resources/session-resources.module.js';
import { SessionsHandler } from './sessions.handler.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';

@Module({
  imports: [AgentsModule, EnvironmentsModule, SessionResourcesModule, VaultsModule],
  controllers: [SessionsHandler],
  providers: [SessionsService, SessionsRepository],
  exports: [SessionsService],
})
export class SessionsModule {}
