/** Drives the running platform over `/v1` the way a client would: sessions, messages, SSE streams. */
import { SseReader, type Frame } from './sse-reader.js';

export interface TurnTiming {
  /** POST sent → `session.status_idle` received on the stream. */
  latency: number;
  /** `user.message` received → `session.status_running` received: how long the input waited. */
  pickup: number;
  /** POST sent → the posted `user.message` received on the stream. */
  postToStream: number;
  /**
   * The same wait as the event log records it (`created_at` of `session.status_running` minus that of
   * `user.message`): the dataplane's own share of `pickup`, without the delivery of either event.
   */
  serverPickup: number;
}

const loggedAt = (frame: Frame): number =>
  Date.parse((JSON.parse(frame.data) as { created_at?: string }).created_at ?? '');

export class PlatformDriver {
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string>,
  ) {}

  async post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async setup(model: unknown = 'scripted'): Promise<{ agentId: string; environmentId: string }> {
    const agent = await this.post<{ id: string }>('/v1/agents', { name: 'bench', model });
    const environment = await this.post<{ id: string }>('/v1/environments', {
      name: 'bench',
      config: { type: 'local' },
    });
    return { agentId: agent.id, environmentId: environment.id };
  }

  /** `count` sessions with their streams open, created a batch at a time. */
  async sessions(ids: { agentId: string; environmentId: string }, count: number): Promise<BenchSession[]> {
    const out: BenchSession[] = [];
    while (out.length < count) {
      const batch = Math.min(50, count - out.length);
      out.push(...(await Promise.all(Array.from({ length: batch }, () => this.session(ids)))));
    }
    return out;
  }

  async session(ids: { agentId: string; environmentId: string }): Promise<BenchSession> {
    const session = await this.post<{ id: string }>('/v1/sessions', {
      agent: ids.agentId,
      environment_id: ids.environmentId,
    });
    return BenchSession.open(this, session.id);
  }
}

/** One session with its live stream; `turn()` sends a message and resolves when the turn is idle. */
export class BenchSession {
  private waiting:
    | {
        sentAt: number;
        messageAt?: number;
        runningAt?: number;
        messageLoggedAt?: number;
        runningLoggedAt?: number;
        done: (t: TurnTiming) => void;
        fail: (e: Error) => void;
      }
    | undefined;
  private reader: SseReader | undefined;
  /** Compactions of the session's context seen on its stream. */
  compactions = 0;

  private constructor(
    private readonly driver: PlatformDriver,
    readonly id: string,
  ) {}

  static async open(driver: PlatformDriver, id: string): Promise<BenchSession> {
    const session = new BenchSession(driver, id);
    session.reader = await SseReader.open(
      `${driver.baseUrl}/v1/sessions/${id}/events/stream`,
      driver.headers,
      (f) => session.onFrame(f),
    );
    return session;
  }

  private onFrame(frame: Frame): void {
    if (frame.event === 'agent.thread_context_compacted') this.compactions += 1;
    const waiting = this.waiting;
    if (!waiting) return;
    if (frame.event === 'user.message' && waiting.messageAt === undefined) {
      waiting.messageAt = frame.at;
      waiting.messageLoggedAt = loggedAt(frame);
    } else if (frame.event === 'session.status_running' && waiting.runningAt === undefined) {
      waiting.runningAt = frame.at;
      waiting.runningLoggedAt = loggedAt(frame);
    } else if (frame.event === 'session.status_idle' && waiting.runningAt !== undefined) {
      this.waiting = undefined;
      const messageAt = waiting.messageAt ?? waiting.runningAt;
      waiting.done({
        latency: frame.at - waiting.sentAt,
        pickup: waiting.runningAt - messageAt,
        postToStream: messageAt - waiting.sentAt,
        serverPickup: (waiting.runningLoggedAt ?? NaN) - (waiting.messageLoggedAt ?? NaN),
      });
    } else if (frame.event === 'session.error') {
      this.waiting = undefined;
      waiting.fail(new Error(`session ${this.id}: ${frame.data}`));
    }
  }

  turn(text = 'hello', timeoutMs = 30_000): Promise<TurnTiming> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`session ${this.id}: no idle within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = {
        sentAt: performance.now(),
        done: (t) => {
          clearTimeout(timer);
          resolve(t);
        },
        fail: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.driver
        .post(`/v1/sessions/${this.id}/events`, {
          events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
        })
        .catch((error: Error) => {
          clearTimeout(timer);
          this.waiting = undefined;
          reject(error);
        });
    });
  }

  close(): void {
    this.reader?.close();
  }
}
