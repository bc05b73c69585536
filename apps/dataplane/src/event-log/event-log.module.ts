import { Global, Module } from '@nestjs/common';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { SqlPool } from '../sql/sql-pool.js';
import { EventPublisher } from './event-publisher.js';
import { SessionEventKeysRepository } from './session-event-keys.repository.js';
import { SessionEventsRepository } from './session-events.repository.js';
import { SessionLogCache } from './session-log-cache.js';
import { WebhookAudience } from './webhook-audience.js';

const logCache = {
  provide: SessionLogCache,
  useFactory: (events: SessionEventsRepository, config: DataplaneEnv) =>
    new SessionLogCache(events, config.AGENTRY_LOG_CACHE_SESSIONS),
  inject: [SessionEventsRepository, DATAPLANE_CONFIG],
};

/** The event log and its announcements on NATS: what every other folder of the dataplane writes through. */
@Global()
@Module({
  providers: [
    SessionEventsRepository,
    SessionEventKeysRepository,
    EventPublisher,
    WebhookAudience,
    SqlPool,
    logCache,
  ],
  exports: [SessionEventsRepository, SessionEventKeysRepository, EventPublisher, SqlPool, SessionLogCache],
})
export class EventLogModule {}
