import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type AppendIdempotency,
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
import { SessionEventKeysRepository } from './session-event-keys.repository.js';
import { SessionEventsRepository, type NewEvent } from './session-events.repository.js';
import type { EventRow } from './event-row.js';

export interface AppendOutcome {
  events: StoredEvent[];
  /** The events were committed by an earlier attempt under the same idempotency key. */
  replayed: boolean;
}

@Injectable()
export class EventsService {
  constructor(
    private readonly events: SessionEventsRepository,
    private readonly keys: SessionEventKeysRepository,
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
   *
   * Under an idempotency key whose append already committed (its reply lost on the way), the committed
   * events are answered again (`replayed`): nothing is appended, announced or kicked a second time.
   */
  async append(
    actor: Actor,
    sessionId: string,
    inbound: InboundEvent[],
    key?: AppendIdempotency,
  ): Promise<AppendOutcome> {
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    // Before admission: a retry must get its answer even if the first attempt's turn spent the budget.
    const earlier = key ? await this.committedUnder(actor, sessionId, key) : null;
    if (earlier) return { events: earlier, replayed: true };
    // Under a key the gate is asked first; without one, the append checks it in its own statement.
    if (key) await this.budgets.assertAccepts(actor, sessionId, inbound);
    const prepared = await this.outcomes.prepare(actor, inbound);
    const forThreads = await this.threadInterrupts(sessionId, prepared);
    const guard = { kind: 'client' as const, tenantId: actor.tenantId, namespaceId: actor.namespaceId };
    const batch = prepared.map((event) => {
      const { type, ...payload } = event;
      // An interrupt aimed at a child thread is recorded here and acted on by that thread alone.
      return { id: newId(ID_PREFIXES.sessionEvent), type, payload, processed: forThreads.has(event) };
    });
    const rows = key
      ? await this.events.appendKeyed(sessionId, guard, key, batch)
      : await this.appendGated(actor, sessionId, inbound, batch);
    if (!rows) {
      // A concurrent duplicate committed first.
      const raced = await this.committedUnder(actor, sessionId, key!);
      if (!raced)
        throw new AppError(
          'IDEMPOTENCY_CONFLICT',
          'A request with this Idempotency-Key is still in progress; retry later',
          { retryable: true },
        );
      return { events: raced, replayed: true };
    }
    const stored = rows.map(toStoredEvent);
    await this.outcomes.listPending(sessionId, stored);
    this.publisher.interrupted(
      sessionId,
      stored.filter((e) => e.event.processed_at === null),
    );
    this.publisher.published(sessionId, stored);
    await this.wakeups.kick(sessionId, actor.tenantId).catch((error: unknown) => {
      this.logger.warn(
        { sessionId, err: (error as Error).message },
        'input committed but its drain not kicked; the reconciler starts it',
      );
    });
    for (const threadId of forThreads.values())
      await this.append(actor, threadId, [{ type: 'user.interrupt' }]);
    return { events: stored, replayed: false };
  }

  /**
   * New work goes in only while no refused model call stands in its way: checked in the append's own
   * statement, and judged in full (a budget or quota raised since lets it in) only when one does.
   */
  private async appendGated(
    actor: Actor,
    sessionId: string,
    inbound: InboundEvent[],
    batch: NewEvent[],
  ): Promise<EventRow[]> {
    const guard = { kind: 'client' as const, tenantId: actor.tenantId, namespaceId: actor.namespaceId };
    const unrefused = this.budgets.admitsUnrefused(inbound);
    if (!unrefused) return this.events.append(sessionId, guard, batch);
    const rows = await this.events.appendNewWork(sessionId, guard, batch, unrefused);
    if (rows) return rows;
    await this.budgets.assertAccepts(actor, sessionId, inbound);
    return this.events.append(sessionId, guard, batch);
  }

  /** The events an earlier append under `key` committed; a different request under the key is a 409. */
  private async committedUnder(
    actor: Actor,
    sessionId: string,
    key: AppendIdempotency,
  ): Promise<StoredEvent[] | null> {
    const found = await this.keys.find(sessionId, actor, key.keyHash);
    if (!found) return null;
    if (found.requestHash !== key.requestHash) {
      throw new AppError(
        'IDEMPOTENCY_CONFLICT',
        'Idempotency-Key was already used with a different request; use a new key',
      );
    }
    return found.events.map(toStoredEvent);
  }

  /** The interrupts of a batch that name a child thread of the session; a thread it does not have is a 404. */
  private async threadInterrupts(
    sessionId: string,
    inbound: InboundEvent[],
  ): Promise<Map<InboundEvent, string>> {
    const targeted = new Map<InboundEvent, string>();
    for (const event of inbound) {
      const threadId = event.type === 'user.interrupt' ? event.session_thread_id : undefined;
      if (!threadId) continue;
      const thread = await this.threads.find(sessionId, threadId);
      if (!thread)
        throw new AppError(
          'NOT_FOUND',
          `session_thread_id: thread ${threadId} not found in session ${sessionId}`,
        );
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
