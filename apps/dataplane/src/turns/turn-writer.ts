import { AppError, ID_PREFIXES, newId, type StoredEvent } from '@agentry/contracts';
import type { EventPublisher } from '../events/event-publisher.js';
import { toStoredEvent } from '../events/event-row.mapper.js';
import type { NewEvent, SessionEventsRepository, StatusChange } from '../events/session-events.repository.js';
import type { PreviewBatcher } from '../events/preview-batcher.js';
import type { Lease } from '../sessions/session-state.repository.js';

export type OutboundEvent = { id?: string; type: string } & Record<string, unknown>;

/**
 * Events after which something outside the log happens (a model call, a tool run): everything
 * written so far must be committed first (DESIGN.md §6.3). Other events wait for the next barrier
 * or the end of the turn, so a turn costs a couple of statements rather than one per event.
 */
const BARRIERS = new Set([
  'span.model_request_start',
  'agent.tool_use',
  'agent.mcp_tool_use',
  'agent.custom_tool_use',
  // A model retry waits before calling again: the client sees `retrying` before the wait, not after it.
  'session.error',
]);

/**
 * Every write of one turn: conditional on the lease's fencing token, so a runner that lost its lease
 * can never write; published on NATS only after commit, in order.
 */
export class TurnWriter {
  private buffered: NewEvent[] = [];
  private readonly previews: PreviewBatcher;
  /** The lease was let go with the turn's last write (`finish` with `release`). */
  released = false;

  constructor(
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    readonly lease: Lease,
    private readonly onCommitted: (stored: StoredEvent[]) => void = () => undefined,
  ) {
    this.previews = publisher.previews(lease.sessionId);
  }

  /**
   * The transition that starts a turn (`idle → running` with its inbox consumed), committed at once so
   * the session shows `running` the moment its input is picked up. With `logEndsAt` (the seq the turn's
   * log ended at when the lease was taken), false when input arrived since: the turn has not seen it,
   * so it must not start on a log that places that input before its answer.
   */
  async start(
    from: string[],
    to: string,
    event: OutboundEvent,
    consume: string[],
    logEndsAt?: number,
  ): Promise<boolean> {
    const change: StatusChange = { from, to, stopReason: null, consume, usage: null, logEndsAt };
    const rows = await this.events.appendWithTransition(
      this.lease.sessionId,
      this.lease,
      change,
      [toNewEvent(event)],
      'pickup',
    );
    if (rows) {
      this.publish(rows.map(toStoredEvent));
      return true;
    }
    if (logEndsAt !== undefined) return false;
    throw new AppError('CONFLICT', `Session ${this.lease.sessionId} changed status before its turn started`);
  }

  async emit(...events: OutboundEvent[]): Promise<void> {
    // Previews go out before the event that concludes them.
    this.previews.flush();
    this.buffered.push(...events.map(toNewEvent));
    if (events.some((e) => BARRIERS.has(e.type))) await this.flush();
  }

  /**
   * Writes what is buffered and the closing status compare-and-set in one statement; false when the
   * status had moved (the buffered events are still written, under the lease).
   */
  async finish(
    from: string[],
    to: string,
    event: OutboundEvent,
    options: {
      stopReason?: Record<string, unknown> | null;
      usage?: Record<string, number>;
      consume?: string[];
      /** Release the lease in the same statement; nothing may be written under it afterwards. */
      release?: boolean;
    } = {},
  ): Promise<boolean> {
    const change: StatusChange = {
      from,
      to,
      stopReason: options.stopReason ?? null,
      consume: options.consume ?? [],
      usage: options.usage ?? null,
      release: options.release ?? false,
    };
    this.previews.flush();
    const batch = [...this.buffered, toNewEvent(event)];
    this.buffered = [];
    const rows = await this.events.appendWithTransition(this.lease.sessionId, this.lease, change, batch);
    if (rows) {
      this.released = change.release ?? false;
      this.publish(rows.map(toStoredEvent));
      return true;
    }
    this.buffered = batch.slice(0, -1);
    await this.flush();
    return false;
  }

  async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const batch = this.buffered;
    this.buffered = [];
    const rows = await this.events.append(
      this.lease.sessionId,
      { kind: 'turn', tenantId: this.lease.tenantId, token: this.lease.token },
      batch,
    );
    this.publish(rows.map(toStoredEvent));
  }

  preview(delta: Record<string, unknown>): void {
    this.previews.add(delta);
  }

  private publish(stored: StoredEvent[]): void {
    this.publisher.published(this.lease.sessionId, stored);
    this.onCommitted(stored);
  }
}

function toNewEvent(event: OutboundEvent): NewEvent {
  const { id, type, ...payload } = event;
  return { id: id ?? newId(ID_PREFIXES.sessionEvent), type, payload, processed: true };
}
