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
import { SessionWakeups } from '../drain/session-wakeups.js';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventKeysRepository } from '../event-log/session-event-keys.repository.js';
import { SessionEventsRepository, type NewEvent } from '../event-log/session-events.repository.js';
import type { EventRow } from '../event-log/event-row.js';
import { ElicitationAnswers } from './elicitation-answers.js';
import { ThreadRouting, type ThreadRoute } from './thread-routing.js';

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
    private readonly threads: ThreadRouting,
    private readonly answers: ElicitationAnswers,
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
    await this.assertElicitationsExist(sessionId, inbound);
    const answered = await this.answers.prepare(actor, sessionId, inbound);
    const prepared = await this.outcomes.prepare(actor, answered);
    const routes = await this.threads.routes(sessionId, prepared);
    const batch = prepared.map((event) => routedEvent(event, routes.get(event)));
    const guard = { kind: 'client' as const, tenantId: actor.tenantId, namespaceId: actor.namespaceId };
    const rows = key
      ? await this.events.appendKeyed(sessionId, guard, key, batch)
      : await this.appendGated(actor, sessionId, answered, batch);
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
    for (const route of routes.values())
      for (const threadId of route.threadIds) await this.append(actor, threadId, [route.forward]);
    return { events: stored, replayed: false };
  }

  /** An answer must name an `agent.mcp_elicitation` of this session (CMA's `mcp_elicitation_not_found`). */
  private async assertElicitationsExist(sessionId: string, inbound: InboundEvent[]): Promise<void> {
    const named = inbound.flatMap((e) =>
      e.type === 'user.mcp_elicitation_response' ? [e.mcp_elicitation_id] : [],
    );
    if (named.length === 0) return;
    const found = await this.events.existing(sessionId, 'agent.mcp_elicitation', named);
    const missing = named.find((id) => !found.has(id));
    if (missing)
      throw new AppError(
        'INVALID_REQUEST',
        `mcp_elicitation_id: no agent.mcp_elicitation ${missing} in session ${sessionId}`,
        { details: { error_code: 'mcp_elicitation_not_found' } },
      );
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

/**
 * The event as the session's log records it. One a child thread acts on alone is recorded here as
 * processed, with the thread it was routed to; an interrupt naming no thread also stops the primary.
 */
function routedEvent(event: InboundEvent, route: ThreadRoute | undefined): NewEvent {
  const { type, ...payload } = event;
  const id = newId(ID_PREFIXES.sessionEvent);
  if (!route) return { id, type, payload, processed: false };
  if (type === 'user.interrupt') return { id, type, payload, processed: Boolean(event.session_thread_id) };
  return { id, type, payload: { ...payload, session_thread_id: route.threadIds[0] }, processed: true };
}
