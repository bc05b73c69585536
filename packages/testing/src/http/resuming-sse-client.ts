import { backOff } from '../time/deliberate-waits.js';

/** One event frame as a resuming client keeps it: the sequence number from `id:` and the event type. */
export interface ResumedFrame {
  seq: number;
  event: string;
  data: string;
  /** When the frame arrived (ms since the epoch). */
  at: number;
}

export interface ResumingSseOptions {
  /** Sequence number to start after (`?after=`); 0 replays the whole log. */
  after?: number;
  /** Longest wait between reconnection attempts while the server is away. */
  maxBackoffMs?: number;
}

/**
 * An SSE client that behaves like a browser's EventSource: when its connection ends (the server died,
 * or `drop()` cut it) it reconnects with `Last-Event-ID` set to the last frame it saw, until `close()`.
 * Every frame is kept, so a test can check that each event arrived exactly once and in order.
 */
export class ResumingSseClient {
  readonly frames: ResumedFrame[] = [];
  /** Connections opened after the first one. */
  reconnects = 0;
  /** Attempts that found the server unreachable or answering other than 200. */
  failedAttempts = 0;
  private lastSeq: number;
  private current: AbortController | undefined;
  private closed = false;
  private readonly loop: Promise<void>;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly options: ResumingSseOptions = {},
  ) {
    this.lastSeq = options.after ?? 0;
    this.loop = this.run();
  }

  get lastEventId(): number {
    return this.lastSeq;
  }

  /** Cuts the current connection as a flaky network would; the client resumes on its own. */
  drop(): void {
    this.current?.abort();
  }

  /** Resolves once `predicate` holds over the frames so far; rejects after `timeoutMs`. */
  async waitFor(
    predicate: (frames: ResumedFrame[]) => boolean,
    timeoutMs: number,
    what = 'stream condition',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.frames)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const tail = this.frames
          .slice(-8)
          .map((f) => `${f.seq}:${f.event}`)
          .join(', ');
        throw new Error(`${what}: not met in ${timeoutMs} ms (${this.frames.length} frames, last: ${tail})`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current?.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    let backoff = 50;
    let first = true;
    while (!this.closed) {
      const controller = new AbortController();
      this.current = controller;
      const resume: Record<string, string> = first ? {} : { 'last-event-id': String(this.lastSeq) };
      const url = first ? `${this.url}${this.url.includes('?') ? '&' : '?'}after=${this.lastSeq}` : this.url;
      if (!first) this.reconnects += 1;
      first = false;
      try {
        const response = await fetch(url, {
          headers: { accept: 'text/event-stream', ...this.headers, ...resume },
          signal: controller.signal,
        });
        if (response.ok && response.body) {
          backoff = 50;
          await this.pump(response.body);
        } else {
          this.failedAttempts += 1;
          await response.body?.cancel().catch(() => undefined);
        }
      } catch {
        if (!controller.signal.aborted) this.failedAttempts += 1;
      }
      if (this.closed) break;
      await backOff(backoff);
      backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 1_000);
    }
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
      // the connection ended (server gone, or dropped on purpose): the run loop resumes
    }
  }

  private consume(block: string): void {
    let id: string | undefined;
    let event = '';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data = data ? `${data}\n${value}` : value;
    }
    // Token previews carry no id and are not part of the log: only logged events move the cursor.
    if (id === undefined || id === '') return;
    const seq = Number(id);
    this.frames.push({ seq, event, data, at: Date.now() });
    this.lastSeq = seq;
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** What a client saw against what it should have: each sequence number from `from` to `to` once, in order. */
export function auditFrames(
  frames: ResumedFrame[],
  from: number,
  to: number,
): { duplicates: number; missing: number; outOfOrder: number } {
  const seen = new Map<number, number>();
  let outOfOrder = 0;
  frames.forEach((f, i) => {
    seen.set(f.seq, (seen.get(f.seq) ?? 0) + 1);
    if (i > 0 && f.seq <= frames[i - 1]!.seq) outOfOrder += 1;
  });
  let duplicates = 0;
  for (const count of seen.values()) duplicates += count - 1;
  let missing = 0;
  for (let seq = from; seq <= to; seq += 1) if (!seen.has(seq)) missing += 1;
  return { duplicates, missing, outOfOrder };
}
