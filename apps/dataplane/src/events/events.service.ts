import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type EventPage,
  type InboundEvent,
  type ListEventsRpcRequest,
  type StoredEvent,
} from '@agentry/contracts';
import { NewWorkGate } from '../budgets/new-work-gate.js';
import { OutcomeDefinitions } from '../outcomes/outcome-definitions.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { SessionWakeups } from '../turns/session-wakeups.js';
import { EventPublisher } from './event-publisher.js';
import { toStoredEvent } from './event-row.mapper.js';
import { SessionEventsRepository } from './session-events.repository.js';

@Injectable()
export class EventsService {
  constructor(
    private readonly events: SessionEventsRepository,
    private readonly sessions: SessionStateRepository,
    private readonly publisher: EventPublisher,
    private readonly wakeups: SessionWakeups,
    private readonly budgets: NewWorkGate,
    private readonly outcomes: OutcomeDefinitions,
  ) {}

  /**
   * Appends a client batch (all or nothing) to the inbox, announces it (interrupts first, to the turn
   * they stop), and kicks a drain. The kick comes after the commit; if Redis loses it, the reconciler
   * finds the unprocessed inbox.
   */
  async append(actor: Actor, sessionId: string, inbound: InboundEvent[]): Promise<StoredEvent[]> {
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    await this.budgets.assertAccepts(actor, sessionId, inbound);
    const prepared = await this.outcomes.prepare(actor, inbound);
    const rows = await this.events.append(
      sessionId,
      { kind: 'client', tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      prepared.map((event) => {
        const { type, ...payload } = event;
        return { id: newId(ID_PREFIXES.sessionEvent), type, payload, processed: false };
      }),
    );
    const stored = rows.map(toStoredEvent);
    await this.outcomes.listPending(sessionId, stored);
    this.publisher.interrupted(sessionId, stored);
    this.publisher.published(sessionId, stored);
    await this.wakeups.kick(sessionId, actor.tenantId);
    return stored;
  }

  async list(actor: Actor, request: ListEventsRpcRequest): Promise<EventPage> {
    const session = await this.sessions.findForTenant(request.sessionId, actor.tenantId, actor.namespaceId);
    if (!session) throw new AppError('NOT_FOUND', `Session ${request.sessionId} not found`);
    const rows = await this.events.list(request.sessionId, {
      afterSeq: request.afterSeq,
      limit: request.limit + 1,
      order: request.order,
      ...(request.beforeSeq ? { beforeSeq: request.beforeSeq } : {}),
      ...(request.types ? { types: request.types } : {}),
    });
    return { data: rows.slice(0, request.limit).map(toStoredEvent), hasMore: rows.length > request.limit };
  }
}
