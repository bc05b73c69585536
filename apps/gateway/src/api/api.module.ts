import { Module } from '@nestjs/common';
import { SessionStreamService } from '../streaming/session-stream.service.js';
import { ApiAgentsController } from './api-agents.controller.js';
import { ApiEnvironmentsController } from './api-environments.controller.js';
import { ApiMemoryStoresController } from './api-memory-stores.controller.js';
import { ApiSessionEventsController } from './api-session-events.controller.js';
import { ApiSessionsController } from './api-sessions.controller.js';
import { ApiVaultsController } from './api-vaults.controller.js';

/** The AgentScope-compatible `/api` surface: a translation layer over the same handlers as `/v1`. */
@Module({
  controllers: [
    ApiAgentsController,
    ApiEnvironmentsController,
    ApiSessionsController,
    ApiSessionEventsController,
    ApiVaultsController,
    ApiMemoryStoresController,
  ],
  providers: [SessionStreamService],
})
export class ApiModule {}
