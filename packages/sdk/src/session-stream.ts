import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';

export interface StreamedEvent {
  /** The event's sequence number in its session (the SSE `id`), `null` for previews. */
  seq: number | null;
  type: string;
  data: Record<string, unknown>;
}

export interface SessionStreamOptions {
  baseUrl: string;
  /** `/v1/sessions/{id}/events/stream`, or a thread's stream. */
  path: string;
  headers?: Record<string, string>;
  /** Resume after this sequence number; without it the stream is live-only (CMA semantics). */
  lastEventId?: number;
  signal?: AbortSignal;
  /** First and largest wait between reconnects; it doubles, with jitter, and resets on a connection. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Called each time the stream is (re)connected: from then on nothing new is missed. */
  onOpen?: () => void;
  /** Called before each reconnect, with the error that closed the stream. */
  onReconnect?: (info: {
    attempt: number;
    delayMs: number;
    lastEventId: number | null;
    error: unknown;
  }) => void;
  fetch?: typeof globalThis.fetch;
}

/** The request failed with a status that a retry will not change (401, 403, 404...). */
export class StreamRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`stream refused with ${status}: ${body.slice(0, 200)}`);
  }
}

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * A session's events as they happen, resumed with `Last-Event-ID` after every disconnect so that none
 * is missed or repeated; reconnects back off exponentially. Ends when `signal` aborts.
 */
export async function* streamSessionEvents(options: SessionStreamOptions): AsyncGenerator<StreamedEvent> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const min = options.minBackoffMs ?? 250;
  const max = options.maxBackoffMs ?? 10_000;
  let lastEventId: number | null = options.lastEventId ?? null;
  let attempt = 0;
  while (!options.signal?.aborted) {
    let error: unknown = null;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
      if (lastEventId !== null) headers['last-event-id'] = String(lastEventId);
      const response = await doFetch(`${options.baseUrl.replace(/\/+$/, '')}${options.path}`, {
        headers,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!response.ok || !response.body) {
        const body = await response.text().catch(() => '');
        if (!RETRYABLE_STATUS.has(response.status)) throw new StreamRefusedError(response.status, body);
        throw new Error(`stream answered ${response.status}`);
      }
      attempt = 0;
      options.onOpen?.();
      const frames: AsyncIterable<EventSourceMessage> = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream());
      for await (const frame of frames) {
        const event = parseFrame(frame);
        if (!event) continue;
        if (event.seq !== null) {
          if (lastEventId !== null && event.seq <= lastEventId) continue;
          lastEventId = event.seq;
        }
        yield event;
      }
      error = new Error('stream closed by the server');
    } catch (caught) {
      if (options.signal?.aborted) return;
      if (caught instanceof StreamRefusedError) throw caught;
      error = caught;
    }
    attempt += 1;
    const ceiling = Math.min(max, min * 2 ** (attempt - 1));
    const delayMs = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
    options.onReconnect?.({ attempt, delayMs, lastEventId, error });
    await sleep(delayMs, options.signal);
  }
}

function parseFrame(frame: EventSourceMessage): StreamedEvent | null {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(frame.data) as Record<string, unknown>;
  } catch {
    return null;
  }
  const type = frame.event ?? (typeof data.type === 'string' ? data.type : 'message');
  // Previews (`event_start`/`event_delta`) reuse the final event's id: they must not move the cursor.
  const preview = type === 'event_start' || type === 'event_delta';
  const seq = frame.id !== undefined && frame.id !== '' && !preview ? Number(frame.id) : null;
  return { seq: Number.isFinite(seq) ? seq : null, type, data };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
