import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
import { EventPublisher } from '../event-log/event-publisher.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import { sessionError } from '../agent-harness/harness-event.mapper.js';
import { TurnWriter } from '../sessions/turn-writer.js';
import { TurnLeases } from '../drain/turn-leases.js';
import { ThreadTurns } from '../threads/thread-turns.js';
import { MID_TURN_STATUSES } from './turn-takeover.js';

const STOP_REASON = { type: 'retries_exhausted' };

/**
 * Ends a session whose turn keeps failing on the same input (the reconciler counted the attempts): its
 * pending input is consumed, a `session.error` says what happened and what to do, and the session goes
 * idle. Nothing of the failing turn runs again; the next message starts afresh.
 */
@Injectable()
export class TurnAbandonment {
  constructor(
    private readonly leases: TurnLeases,
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    private readonly threads: ThreadTurns,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async end(sessionId: string, failedAttempts: number | undefined): Promise<void> {
    // A lease held elsewhere means a runner is alive on the session again: it is not stalled any more.
    const acquired = await this.leases.acquire(sessionId, null, 'abandon');
    if (!acquired) return;
    const { lease, session } = acquired;
    const inbox = acquired.inbox.map((row) => row.id);
    try {
      if (session.archivedAt || session.status === 'terminated') return;
      if (!MID_TURN_STATUSES.has(session.status) && inbox.length === 0) return;
      const writer = new TurnWriter(this.events, this.publisher, lease);
      this.threads.restyleStatuses(session, writer);
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
      await this.leases.release(lease).catch(() => undefined);
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
