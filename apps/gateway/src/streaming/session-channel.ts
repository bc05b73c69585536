import { PubSubjects, type Actor, type StoredEvent } from '@agentry/contracts';
import { platformMetrics, type Clock, type Logger, type NatsBus } from '@agentry/platform';
import { liveEventOf } from './live-event.js';
import type { SessionEventLog } from './session-event-log.js';
import { SessionPreviews } from './session-previews.js';
import type { SseConnection } from './sse-connection.js';
import { RenderedEvent } from './sse-frame.js';

const PAGE = 500;
const REPLAY_DRAIN_TIMEOUT_MS = 30_000;

/**
 * One session as this gateway watches it: a single NATS subscription whose events are parsed once,
 * put in seq order (holes filled from the log) and fanned out to every live client as one shared
 * frame string. NATS is at-most-once, so the channel also re-reads the log's end when asked
 * (`recheck`: after a reconnect, or when the session has been quiet), so a lost message only delays.
 */
export class SessionChannel {
  readonly connections = new Set<SseConnection>();
  /** Highest seq fanned out; everything up to it went out in order. */
  private lastSeq = 0;
  private chain: Promise<void>;
  private readonly ready: Promise<void>;
  private readonly unsubscribe: () => void;
  private recheckQueued = false;
  private readonly previews: SessionPreviews;
  lastActivityAt: number;

  constructor(
    readonly sessionId: string,
    private actor: Actor,
    bus: NatsBus,
    private readonly log: SessionEventLog,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.lastActivityAt = clock.nowMs();
    this.unsubscribe = bus.subscribe(PubSubjects.sessionEvents(sessionId), (message) => {
      const event = liveEventOf(message);
      if (!event) return;
      platformMetrics().sseFanoutLag.record(
        Math.max(0, clock.nowMs() - Date.parse(event.event.created_at)) / 1000,
      );
      this.enqueue(() => this.deliver(event));
    });
    // The subscription is live at the server before the log's end is read, so every event committed
    // after that read arrives here; the chain holds messages back until the starting seq is known.
    this.ready = bus.flush().then(async () => {
      this.lastSeq = await log.latestSeq(actor, sessionId);
    });
    this.chain = this.ready.catch(() => undefined);
    this.previews = new SessionPreviews(sessionId, bus, this.connections, (task) => this.enqueue(task));
  }

  /**
   * Opens the stream for `connection` once the starting point is known, so no event committed after
   * the client saw the stream open can be missed. `after` null: live from here; else replay after it.
   */
  async attach(connection: SseConnection, actor: Actor, after: number | null): Promise<void> {
    this.actor = actor;
    this.connections.add(connection);
    if (connection.deltas.size > 0) this.previews.refresh();
    await this.ready;
    if (connection.isClosed) return;
    connection.seq = after ?? this.lastSeq;
    connection.open();
    await this.catchUp(connection);
  }

  detach(connection: SseConnection): void {
    this.connections.delete(connection);
    if (connection.deltas.size > 0) this.previews.refresh();
  }

  close(): void {
    this.unsubscribe();
    this.previews.close();
  }

  /** Asks the log whether this channel missed its latest events, and sends them. At most one queued. */
  recheck(): void {
    if (this.recheckQueued) return;
    this.recheckQueued = true;
    this.enqueue(async () => {
      this.recheckQueued = false;
      this.lastActivityAt = this.clock.nowMs();
      if ((await this.log.latestSeq(this.actor, this.sessionId)) > this.lastSeq) await this.fill();
    });
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((error: unknown) => {
      this.logger.warn(
        { sessionId: this.sessionId, err: (error as Error).message },
        'sse channel could not read the log; will retry',
      );
    });
  }

  private async deliver(event: StoredEvent): Promise<void> {
    if (event.seq <= this.lastSeq) return;
    if (event.seq > this.lastSeq + 1) await this.fill(event.seq);
    if (event.seq > this.lastSeq) this.fanOut(event);
  }

  /** Sends what the log holds after `lastSeq` (and before `beforeSeq`), in order. */
  private async fill(beforeSeq?: number): Promise<void> {
    for (;;) {
      const page = await this.log.page(this.actor, this.sessionId, this.lastSeq, PAGE, beforeSeq);
      for (const event of page.data) if (event.seq > this.lastSeq) this.fanOut(event);
      if (!page.hasMore || page.data.length === 0) return;
    }
  }

  private fanOut(event: StoredEvent): void {
    this.lastSeq = event.seq;
    this.lastActivityAt = this.clock.nowMs();
    const rendered = new RenderedEvent(event, this.sessionId);
    for (const connection of this.connections) {
      if (!connection.live || event.seq <= connection.seq) continue;
      connection.seq = event.seq;
      connection.write(rendered.frame(connection.format, connection.revealsConsent));
    }
  }

  /**
   * Replays the log from the client's resume point until it reaches what the channel has sent, then
   * makes it live. Joining is synchronous with the check, so no live event slips between the two.
   */
  private async catchUp(connection: SseConnection): Promise<void> {
    while (!connection.isClosed) {
      if (connection.seq >= this.lastSeq) {
        connection.live = true;
        return;
      }
      const page = await this.log.page(this.actor, this.sessionId, connection.seq, PAGE);
      for (const event of page.data) {
        if (event.seq <= connection.seq) continue;
        connection.seq = event.seq;
        const frame = new RenderedEvent(event, this.sessionId).frame(
          connection.format,
          connection.revealsConsent,
        );
        if (!connection.write(frame)) return;
      }
      if (page.data.length === 0) {
        connection.live = true;
        return;
      }
      await connection.drained(REPLAY_DRAIN_TIMEOUT_MS);
    }
  }
}
