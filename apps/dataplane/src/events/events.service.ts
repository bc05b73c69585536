import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
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
import { ThreadStore } from '../threads/thread-store.repository.js';
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
    private readonly threads: ThreadStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Appends a client batch (all or nothing) to the inbox, announces it (interrupts first, to the turn
   * they stop), and kicks a drain. The kick comes after the commit; if Redis loses it or is away, the
   * reconciler finds the unprocessed inbox, so the batch is still answered as accepted: failing it would
   * make the client send it again, and the session would hold it twice.
   */
  async append(actor: Actor, sessionId: string, inbound: InboundEvent[]): Promise<StoredEvent[]> {
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    await this.budgets.assertAccepts(actor, sessionId, inbound);
    const prepared = await this.outcomes.prepare(actor, inbound);
    const forThreads = await this.threadInterrupts(sessionId, prepared);
    const rows = await this.events.append(
      sessionId,
      { kind: 'client', tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      prepared.map((event) => {
        const { type, ...payload } = event;
        // An interrupt aimed at a child thread is recorded here and acted on by that thread alone.
        return { id: newId(ID_PREFIXES.sessionEvent), type, payload, processed: forThreads.has(event) };
      }),
    );
    const stored = rows.map(toStoredEvent);
    await this.outcomes.listPending(sessionId, stored);
    this.publisher.interrupted(sessionId, stored.filter((e) => e.event.processed_at === null));
    this.publisher.published(sessionId, stored);
    await this.wakeups.kick(sessionId, actor.tenantId).catch((error: unknown) => {
      this.logger.warn({ sessionId, err: (error as Error).message }, 'input committed but its drain not kicked; the reconciler starts it');
    });
    for (const threadId of forThreads.values()) await this.append(actor, threadId, [{ type: 'user.interrupt' }]);
    return stored;
  }

  /** The interrupts of a batch that name a child thread of the session; a thread it does not have is a 404. */
  private async threadInterrupts(sessionId: string, inbound: InboundEvent[]): Promise<Map<InboundEvent, string>> {
    const targeted = new Map<InboundEvent, string>();
    for (const event of inbound) {
      const threadId = event.type === 'user.interrupt' ? event.session_thread_id : undefined;
      if (!threadId) continue;
      const thread = await this.threads.find(sessionId, threadId);
      if (!thread) throw new AppError('NOT_FOUND', `session_thread_id: thread ${threadId} not found in session ${sessionId}`);
      if (thread.parentThreadId !== null) targeted.set(event, threadId);
    }
    return targeted;
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
