import { recordObserved } from '../secrets/secret-registry.js';

/** One parsed SSE frame; comments (heartbeats) are counted but not returned as frames. */
export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A minimal SSE reader over fetch, for tests: collects frames as they arrive and lets a test wait
 * for a condition. Counts heartbeat comments so their cadence can be asserted.
 */
export class SseClient {
  readonly frames: SseFrame[] = [];
  comments = 0;
  status = 0;
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  private done: Promise<void> = Promise.resolve();

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: client.controller.signal,
    });
    client.status = response.status;
    if (!response.ok || !response.body) {
      client.frames.push({ data: await response.text() });
      return client;
    }
    client.done = client.pump(response.body);
    return client;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          this.consume(buffer.slice(0, boundary));
          buffer = buffer.slice(boundary + 2);
        }
        this.notify();
      }
    } catch {
      // closed by the test
    }
  }

  private consume(block: string): void {
    const frame: SseFrame = { data: '' };
    let sawField = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments += 1;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      sawField = true;
      if (field === 'id') frame.id = value;
      else if (field === 'event') frame.event = value;
      else if (field === 'data') frame.data = frame.data ? `${frame.data}\n${value}` : value;
    }
    if (!sawField) return;
    recordObserved(`sse ${frame.event ?? 'message'}`, frame.data);
    this.frames.push(frame);
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when `predicate` holds over the frames received so far; rejects after `timeoutMs`. */
  async waitFor(predicate: (frames: SseFrame[]) => boolean, timeoutMs = 30_000): Promise<SseFrame[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.frames)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(
          `SSE condition not met in ${timeoutMs} ms; got: ${this.frames.map((f) => f.event).join(', ')}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames;
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}
