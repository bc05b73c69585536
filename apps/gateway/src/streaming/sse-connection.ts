import type { ServerResponse } from 'node:http';
import { AppError, HTTP_STATUS_BY_CODE, toErrorEnvelope } from '@agentry/contracts';
import type { DeltaType } from '@agentry/contracts';
import { platformMetrics } from '@agentry/platform';
import { SSE_HEARTBEAT, type SseFormat } from './sse-frame.js';

/**
 * One SSE client: its socket, its frame format and the last seq it was sent. Kept small on purpose:
 * a gateway holds thousands of idle ones. A client that stops reading is closed once its unsent
 * output passes the bound, rather than buffered without limit; it resumes with Last-Event-ID.
 */
export class SseConnection {
  /** The last seq written to this client (or the seq it resumed after). */
  seq = 0;
  /** Receives live events; false while it waits for the start or replays the log. */
  live = false;

  constructor(
    readonly response: ServerResponse,
    readonly format: SseFormat,
    private readonly maxBufferedBytes: number,
    /** Event types this client asked to preview (`event_deltas[]`); empty for most. */
    readonly deltas: ReadonlySet<DeltaType> = new Set(),
    /** Whether this client reads consent links (it created the session); if not, they are withheld. */
    readonly revealsConsent = true,
  ) {}

  get isClosed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  open(): void {
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    platformMetrics().sseConnections.add(1);
    this.response.once('close', () => platformMetrics().sseConnections.add(-1));
    this.write(SSE_HEARTBEAT);
  }

  /**
   * Writes a frame; false when the client is gone or was closed for not reading. The bound applies to
   * live output; a replay instead waits for `drained()` between pages.
   */
  write(frame: string): boolean {
    if (this.isClosed) return false;
    this.response.write(frame);
    if (!this.live || this.response.writableLength <= this.maxBufferedBytes) return true;
    this.response.destroy();
    return false;
  }

  /** Resolves once the socket took what was written (replays wait here between pages). */
  async drained(timeoutMs: number): Promise<void> {
    if (this.isClosed || !this.response.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.response.off('drain', done).off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.response.destroy();
        done();
      }, timeoutMs);
      this.response.on('drain', done).on('close', done);
    });
  }

  /** Ends the stream because the gateway is stopping: the client resumes with Last-Event-ID elsewhere. */
  end(): void {
    this.fail(new AppError('UNAVAILABLE', 'The gateway is shutting down; reconnect to resume the stream'));
  }

  /** Before the stream opened, the failure can still be an HTTP error; after, the stream just ends. */
  fail(error: unknown): void {
    if (this.isClosed) return;
    if (this.response.headersSent) {
      this.response.end();
      return;
    }
    const appError =
      error instanceof AppError
        ? error
        : new AppError('UNAVAILABLE', 'The event stream could not start', { cause: error });
    const retryAfter = appError.details?.retry_after_seconds;
    this.response
      .writeHead(HTTP_STATUS_BY_CODE[appError.code], {
        'content-type': 'application/json; charset=utf-8',
        ...(typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {}),
      })
      .end(JSON.stringify(toErrorEnvelope(appError, null)));
  }
}
