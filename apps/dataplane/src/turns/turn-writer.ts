import { ID_PREFIXES, newId, type StoredEvent } from '@agentry/contracts';
import type { PrismaClient, SessionStatus } from '@agentry/db';
import type { EventPublisher } from '../events/event-publisher.js';
import { toStoredEvent } from '../events/event-row.mapper.js';
import type { NewEvent, SessionEventsRepository } from '../events/session-events.repository.js';
import type { Lease, SessionStateRepository } from '../sessions/session-state.repository.js';

export type OutboundEvent = { id?: string; type: string } & Record<string, unknown>;

/**
 * Every write of one turn: conditional on the lease's fencing token, so a runner that lost its lease
 * can never write; published on NATS only after commit.
 */
export class TurnWriter {
  constructor(
    private readonly db: PrismaClient,
    private readonly events: SessionEventsRepository,
    private readonly state: SessionStateRepository,
    private readonly publisher: EventPublisher,
    readonly lease: Lease,
  ) {}

  async emit(...events: OutboundEvent[]): Promise<StoredEvent[]> {
    const rows = await this.events.append(this.lease.sessionId, this.guard(), events.map(toNewEvent));
    return this.publish(rows.map(toStoredEvent));
  }

  /** Status compare-and-set plus its `session.status_*` event, in one transaction. */
  async transition(
    from: SessionStatus[],
    to: SessionStatus,
    event: OutboundEvent,
    options: { stopReason?: Record<string, unknown> | null; consumeInbox?: string[]; usage?: Record<string, number> } = {},
  ): Promise<boolean> {
    const stored = await this.db.$transaction(async (tx) => {
      const moved = await this.state.transition(tx, this.lease, from, to, options.stopReason ?? null);
      if (!moved) return null;
      await this.events.markProcessed(tx, this.lease.sessionId, options.consumeInbox ?? []);
      if (options.usage) await this.state.addUsage(tx, this.lease, options.usage);
      return this.events.appendIn(tx, this.lease.sessionId, this.guard(), [toNewEvent(event)]);
    });
    if (!stored) return false;
    this.publish(stored.map(toStoredEvent));
    return true;
  }

  preview(delta: Record<string, unknown>): void {
    this.publisher.preview(this.lease.sessionId, delta);
  }

  private guard() {
    return { kind: 'turn' as const, tenantId: this.lease.tenantId, token: this.lease.token };
  }

  private publish(stored: StoredEvent[]): StoredEvent[] {
    this.publisher.published(this.lease.sessionId, stored);
    return stored;
  }
}

function toNewEvent(event: OutboundEvent): NewEvent {
  const { id, type, ...payload } = event;
  return { id: id ?? newId(ID_PREFIXES.sessionEvent), type, payload, processed: true };
}
