import { Module } from '@nestjs/common';
import { SessionStreamService } from '../streaming/session-stream.service.js';
import { AgentsController } from './agents.controller.js';
import { EnvironmentsController } from './environments.controller.js';
import { SessionEventsController } from './session-events.controller.js';
import { SessionsController } from './sessions.controller.js';

@Module({
  controllers: [AgentsController, EnvironmentsController, SessionsController, SessionEventsController],
  providers: [SessionStreamService],
})
export class V1Module {}
