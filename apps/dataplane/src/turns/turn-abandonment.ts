import { Inject, Injectable } from '@nestjs/common';
import { hostname } from 'node:os';
import { LOGGER, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { EventPublisher } from '../events/event-publisher.js';
import { SessionEventsRepository } from '../events/session-events.repository.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { sessionError } from './harness-event.mapper.js';
import { TurnWriter } from './turn-writer.js';
import { MID_TURN_STATUSES } from './turn-takeover.js';

const STOP_REASON = { type: 'retries_exhausted' };

/**
 * Ends a session whose turn keeps failing on the same input (the reconciler counted the attempts): its
 * pending input is consumed, a `session.error` says what happened and what to do, and the session goes
 * idle. Nothing of the failing turn runs again; the next message starts afresh.
 */
@Injectable()
export class TurnAbandonment {
  private readonly owner = `${hostname()}:${process.pid}:abandon`;

  constructor(
    private readonly state: SessionStateRepository,
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async end(sessionId: string, failedAttempts: number | undefined): Promise<void> {
    // A lease held elsewhere means a runner is alive on the session again: it is not stalled any more.
    const acquired = await this.state.acquire(sessionId, this.owner, this.config.AGENTRY_LEASE_TTL_MS);
    if (!acquired) return;
    const { lease, session } = acquired;
    const inbox = acquired.inbox.map((row) => row.id);
    try {
      if (session.archivedAt || session.status === 'terminated') return;
      if (!MID_TURN_STATUSES.has(session.status) && inbox.length === 0) return;
      const writer = new TurnWriter(this.events, this.publisher, lease);
      await writer.emit(
        sessionError(
          { code: 'INTERNAL', message: abandonMessage(failedAttempts), retryable: false },
          'exhausted',
        ),
      );
      const ended = await writer.finish(
        [session.status],
        'idle',
        { type: 'session.status_idle', stop_reason: STOP_REASON },
        { stopReason: STOP_REASON, consume: inbox },
      );
      if (ended)
        this.logger.warn(
          { sessionId, failedAttempts },
          'ended a session whose turn kept failing on the same input',
        );
    } finally {
      await this.state.release(lease).catch(() => undefined);
    }
  }
}

function abandonMessage(failedAttempts: number | undefined): string {
  const times = failedAttempts ? `${failedAttempts} times` : 'repeatedly';
  return (
    `The turn failed ${times} in a row on the same input and was stopped rather than retried forever. ` +
    'The session is idle: send another message to try again, and if it keeps failing check the dataplane logs for this session.'
  );
}
