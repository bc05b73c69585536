import type { ServerResponse } from 'node:http';
import type { StoredEvent } from '@agentry/contracts';
import { platformMetrics } from '@agentry/platform';

/** Writes SSE frames: every event frame has `id:`, `event:` and one JSON `data:` line. */
export class SseWriter {
  private closed = false;

  constructor(private readonly response: ServerResponse) {
    response.on('close', () => {
      this.closed = true;
    });
  }

  open(): void {
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.response.flushHeaders();
    platformMetrics().sseConnections.add(1);
    this.response.once('close', () => platformMetrics().sseConnections.add(-1));
  }

  get isClosed(): boolean {
    return this.closed || this.response.destroyed;
  }

  event(stored: StoredEvent): void {
    if (this.isClosed) return;
    this.response.write(`id: ${stored.seq}\nevent: ${stored.event.type}\ndata: ${JSON.stringify(stored.event)}\n\n`);
  }

  /** A comment line: keeps proxies from closing an idle stream; SSE clients ignore it. */
  heartbeat(): void {
    if (!this.isClosed) this.response.write(': ping\n\n');
  }

  onClose(listener: () => void): void {
    this.response.on('close', listener);
  }

  end(): void {
    if (!this.isClosed) this.response.end();
  }
}
