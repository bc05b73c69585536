import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { confirmationTimeoutOf, expiredAsks, expiryDenyMessage } from './expired-confirmations.js';

/**
 * Denies on the user's behalf the `ask` calls left unanswered past the environment's timeout. The
 * denial is a `user.tool_confirmation` in the inbox like any other (so it survives restarts and shows in
 * the log); the drain that follows runs the turn on, with the deny message as each call's error result.
 */
@Injectable()
export class ConfirmationExpiry {
  constructor(
    private readonly state: SessionStateRepository,
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async expire(sessionId: string, now = this.clock.now()): Promise<number> {
    const session = await this.state.find(sessionId);
    const timeout = confirmationTimeoutOf(session?.spec);
    if (!session || !timeout || session.archivedAt || session.status !== 'idle') return 0;
    const log = (await this.events.after(sessionId, 0)).map(toStoredEvent);
    const expired = expiredAsks(log, timeout, now);
    if (expired.length === 0) return 0;
    const rows = await this.events.append(
      sessionId,
      { kind: 'client', tenantId: session.tenantId, namespaceId: session.namespaceId },
      expired.map((toolUseId) => ({
        id: newId(ID_PREFIXES.sessionEvent),
        type: 'user.tool_confirmation',
        payload: { tool_use_id: toolUseId, result: 'deny', deny_message: expiryDenyMessage(timeout) },
        processed: false,
      })),
    );
    this.publisher.published(sessionId, rows.map(toStoredEvent));
    this.logger.info(
      { sessionId, calls: expired, timeoutSeconds: timeout },
      'denied tool calls left unconfirmed past the timeout',
    );
    return expired.length;
  }
}
