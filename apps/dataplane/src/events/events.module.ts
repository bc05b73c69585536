import { Global, Module } from '@nestjs/common';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { EventPublisher } from './event-publisher.js';
import { EventsHandler } from './events.handler.js';
import { EventsService } from './events.service.js';
import { SessionEventsRepository } from './session-events.repository.js';

@Global()
@Module({
  controllers: [EventsHandler],
  providers: [EventsService, SessionEventsRepository, SessionStateRepository, EventPublisher],
  exports: [SessionEventsRepository, SessionStateRepository, EventPublisher],
})
export class EventsModule {}
