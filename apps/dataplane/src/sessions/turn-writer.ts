import { AppError, ID_PREFIXES, newId, type StoredEvent } from '@agentry/contracts';
import type { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import type { EventRow } from '../event-log/event-row.js';
import type {
  ClosingCheckpoint,
  ClosingCheckpointOutcome,
  NewEvent,
  SessionEventsRepository,
  StatusChange,
} from '../event-log/session-events.repository.js';
import type { PreviewBatcher } from '../event-log/preview-batcher.js';
import type { Lease } from './session-state.repository.js';

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
 * A turn's start, held back to travel with the turn's first write (`TurnWriter.startWithFirstWrite`), was
 * refused there: input arrived since the lease was taken. Nothing was written; the drain's next round
 * takes that input with the rest.
 */
export class TurnStartRefused extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId}: input arrived before the turn's first write; the turn starts again`);
    this.name = 'TurnStartRefused';
  }
}

/**
 * Every write of one turn: conditional on the lease's fencing token, so a runner that lost its lease
 * can never write; published on NATS only after commit, in order.
 */
export class TurnWriter {
  private buffered: NewEvent[] = [];
  private readonly previews: PreviewBatcher;
  /** The lease was let go with the turn's last write (`finish` with `release`). */
  released = false;
  /** Every event this writer committed, in order. */
  readonly committed: StoredEvent[] = [];
  /** Inbox events its transitions consumed. */
  readonly consumed = new Set<string>();
  /** Where the log stood after this writer's last commit (or as the turn read it); undefined once unknown. */
  private logEnd: number | undefined;
  /** How the row's status events read in its log (a session thread's are the thread's own). */
  private statusEvent: (event: OutboundEvent) => OutboundEvent = (event) => event;
  /** A start not yet written: it goes out with the first write (see `startWithFirstWrite`). */
  private heldStart: { change: StatusChange; event: NewEvent } | undefined;

  /** `logEnd`: the seq the log the turn read ended at, when known. */
  constructor(
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    readonly lease: Lease,
    private readonly onCommitted: (stored: StoredEvent[]) => void = () => undefined,
    logEnd?: number,
  ) {
    this.previews = publisher.previews(lease.sessionId);
    this.logEnd = logEnd;
  }

  /** Writes every status event of this writer as `restyle` makes it (see ThreadTurns.statusEventsOf). */
  restyleStatuses(restyle: (event: OutboundEvent) => OutboundEvent): void {
    this.statusEvent = restyle;
  }

  /**
   * Nothing but this writer appended to the session since the log the turn read: each of its commits
   * followed the one before with no gap in seq. Input can only have arrived by another append, so when
   * this holds at the turn's last write, the turn saw every input there is.
   */
  get alone(): boolean {
    return this.logEnd !== undefined;
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
    const change: StatusChange = { from, to, stopReason: null, consume, logEndsAt };
    const rows = await this.events.appendWithTransition(
      this.lease.sessionId,
      this.lease,
      change,
      [toNewEvent(this.statusEvent(event))],
      'pickup',
    );
    if (rows) {
      for (const id of consume) this.consumed.add(id);
      this.publish(rows.map(toStoredEvent));
      return true;
    }
    if (logEndsAt !== undefined) return false;
    throw new AppError('CONFLICT', `Session ${this.lease.sessionId} changed status before its turn started`);
  }

  /**
   * `start` for a turn with nothing to do between its start and its first write: the transition and its
   * status event are written by that first write, in the same statement (its first barrier, or its close),
   * which saves a statement, a commit and a message per turn. The session reads `running` from then on.
   * Refused there when input arrived since the lease was taken (`logEndsAt`): that write throws
   * `TurnStartRefused` and writes nothing, so the turn answers exactly the input it consumes.
   */
  startWithFirstWrite(
    from: string[],
    to: string,
    event: OutboundEvent,
    consume: string[],
    logEndsAt: number,
  ): void {
    const change: StatusChange = { from, to, stopReason: null, consume, logEndsAt };
    this.heldStart = { change, event: toNewEvent(this.statusEvent(event)) };
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
    options: FinishOptions = {},
  ): Promise<boolean> {
    const closed = await this.closeWith(from, to, event, options, async (change, batch) => {
      const rows = await this.events.appendWithTransition(this.lease.sessionId, this.lease, change, batch);
      return rows && { rows, result: true };
    });
    return closed !== null;
  }

  /**
   * `finish` with the turn boundary's checkpoint in the same statement (see
   * `SessionEventsRepository.closeWithCheckpoint`); null when the status had moved.
   */
  async finishWithCheckpoint(
    from: string[],
    to: string,
    event: OutboundEvent,
    options: FinishOptions,
    checkpoint: ClosingCheckpoint,
  ): Promise<ClosingCheckpointOutcome | null> {
    const { sessionId } = this.lease;
    const closed = await this.closeWith(from, to, event, options, async (change, batch) => {
      const written = await this.events.closeWithCheckpoint(sessionId, this.lease, change, batch, checkpoint);
      return written && { rows: written.rows, result: written.checkpoint };
    });
    return closed?.result ?? null;
  }

  private async closeWith<T>(
    from: string[],
    to: string,
    event: OutboundEvent,
    options: FinishOptions,
    write: (change: StatusChange, batch: NewEvent[]) => Promise<{ rows: EventRow[]; result: T } | null>,
  ): Promise<{ result: T } | null> {
    const change: StatusChange = {
      from,
      to,
      stopReason: options.stopReason ?? null,
      consume: options.consume ?? [],
      release: options.release ?? false,
    };
    this.previews.flush();
    if (this.heldStart) await this.flush();
    const batch = [...this.buffered, toNewEvent(this.statusEvent(event))];
    this.buffered = [];
    const written = await write(change, batch);
    if (written) {
      for (const id of change.consume) this.consumed.add(id);
      this.released = change.release ?? false;
      this.publish(written.rows.map(toStoredEvent));
      return written;
    }
    this.buffered = batch.slice(0, -1);
    await this.flush();
    return null;
  }

  async flush(): Promise<void> {
    if (this.heldStart) return this.writeHeldStart();
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

  /** The held start with what is buffered after its status event, in one statement. */
  private async writeHeldStart(): Promise<void> {
    const { change, event } = this.heldStart!;
    const batch = [event, ...this.buffered];
    const { sessionId } = this.lease;
    const rows = await this.events.appendWithTransition(sessionId, this.lease, change, batch, 'pickup');
    if (!rows) throw new TurnStartRefused(sessionId);
    this.heldStart = undefined;
    this.buffered = [];
    for (const id of change.consume) this.consumed.add(id);
    this.publish(rows.map(toStoredEvent));
  }

  preview(delta: Record<string, unknown>): void {
    this.previews.add(delta);
  }

  private publish(stored: StoredEvent[]): void {
    const first = stored[0]?.seq;
    if (first !== undefined)
      this.logEnd = first === (this.logEnd ?? NaN) + 1 ? stored.at(-1)!.seq : undefined;
    this.committed.push(...stored);
    this.publisher.published(this.lease.sessionId, stored);
    this.onCommitted(stored);
  }
}

interface FinishOptions {
  stopReason?: Record<string, unknown> | null;
  consume?: string[];
  /** Release the lease in the same statement; nothing may be written under it afterwards. */
  release?: boolean;
}

function toNewEvent(event: OutboundEvent): NewEvent {
  const { id, type, ...payload } = event;
  return { id: id ?? newId(ID_PREFIXES.sessionEvent), type, payload, processed: true };
}
