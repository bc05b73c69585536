import { Global, Module } from '@nestjs/common';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { SqlPool } from '../sql/sql-pool.js';
import { SessionWakeups } from '../turns/session-wakeups.js';
import { EventPublisher } from './event-publisher.js';
import { EventsHandler } from './events.handler.js';
import { EventsService } from './events.service.js';
import { SessionEventKeysRepository } from './session-event-keys.repository.js';
import { SessionEventsRepository } from './session-events.repository.js';

@Global()
@Module({
  controllers: [EventsHandler],
  providers: [
    EventsService,
    SessionEventsRepository,
    SessionEventKeysRepository,
    SessionStateRepository,
    EventPublisher,
    SessionWakeups,
    SqlPool,
  ],
  exports: [SessionEventsRepository, SessionStateRepository, EventPublisher, SessionWakeups, SqlPool],
})
export class EventsModule {}
