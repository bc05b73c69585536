import { streamSessionEvents, type components, type StreamedEvent } from '@agentry/sdk';
import { unwrap, type Api } from './api.js';
import { EventRenderer } from './render.js';

export interface PendingTool {
  id: string;
  name: string;
  input: unknown;
}

type SendableEvent = components['schemas']['SendEventsRequest']['events'][number];
type IdleListener = (stopReason: { type: string; event_ids?: string[] }) => void;

/**
 * Follows one session's stream (with token previews), renders it, remembers its tool calls, and sends
 * what the person types: messages, approvals, interrupts. Detaching stops following; the session runs on.
 */
export class LiveSession {
  private readonly toolUses = new Map<string, PendingTool>();
  private readonly stop = new AbortController();
  private readonly idleListeners = new Set<IdleListener>();
  private readonly renderer: EventRenderer;
  pending: PendingTool[] = [];

  constructor(
    private readonly api: Api,
    readonly sessionId: string,
    write: (text: string) => void,
    private readonly options: { echoUser: boolean },
  ) {
    this.renderer = new EventRenderer(write);
  }

  /**
   * Starts following after `afterSeq` (0: from the start; null: live only); resolves once the stream
   * is connected, so whatever happens from then on is shown.
   */
  follow(afterSeq: number | null, onError: (error: unknown) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      // The stream fails with an Error (refused, unreachable, a broken connection).
      this.run(afterSeq, resolve).catch((error: Error) => {
        reject(error);
        onError(error);
      });
    });
  }

  onIdle(listener: IdleListener): () => void {
    this.idleListeners.add(listener);
    return () => this.idleListeners.delete(listener);
  }

  /** The next idle, e.g. after sending a message. */
  nextIdle(): Promise<{ type: string; event_ids?: string[] }> {
    return new Promise((resolve) => {
      const off = this.onIdle((reason) => {
        off();
        resolve(reason);
      });
    });
  }

  /** Tool calls waiting for a decision now (on attach, read from the session and its log). */
  async loadPending(): Promise<PendingTool[]> {
    const session = await this.api.call<{
      status: string;
      stop_reason?: { type: string; event_ids?: string[] };
    }>('GET', `/v1/sessions/${this.sessionId}`);
    if (session.status !== 'idle' || session.stop_reason?.type !== 'requires_action')
      return (this.pending = []);
    const ids = new Set(session.stop_reason.event_ids ?? []);
    const events = await this.api.call<{
      data: { id: string; type: string; name: string; input: unknown }[];
    }>('GET', `/v1/sessions/${this.sessionId}/events`, undefined, { limit: 1000, order: 'desc' });
    this.pending = events.data
      .filter((e) => ids.has(e.id))
      .map((e) => ({ id: e.id, name: e.name, input: e.input }));
    return this.pending;
  }

  async send(text: string): Promise<void> {
    await this.post([{ type: 'user.message', content: [{ type: 'text', text }] }]);
  }

  async confirm(toolUseId: string, allow: boolean, denyMessage?: string): Promise<void> {
    await this.post([
      {
        type: 'user.tool_confirmation',
        tool_use_id: toolUseId,
        result: allow ? 'allow' : 'deny',
        ...(denyMessage ? { deny_message: denyMessage } : {}),
      },
    ]);
    this.pending = this.pending.filter((p) => p.id !== toolUseId);
  }

  async interrupt(): Promise<void> {
    await this.post([{ type: 'user.interrupt' }]);
  }

  detach(): void {
    this.stop.abort();
  }

  private async post(events: SendableEvent[]): Promise<void> {
    unwrap(
      await this.api.client.POST('/v1/sessions/{id}/events', {
        params: { path: { id: this.sessionId } },
        body: { events },
      }),
    );
  }

  private async run(afterSeq: number | null, onOpen: () => void): Promise<void> {
    const stream = streamSessionEvents({
      baseUrl: this.api.config.url,
      path: `/v1/sessions/${this.sessionId}/events/stream?event_deltas[]=agent.message`,
      headers: this.api.headers,
      ...(afterSeq !== null ? { lastEventId: afterSeq } : {}),
      signal: this.stop.signal,
      onOpen,
    });
    for await (const event of stream) this.handle(event);
  }

  private handle(event: StreamedEvent): void {
    this.renderer.render(event, { echoUser: this.options.echoUser });
    const data = event.data;
    if (event.type === 'agent.tool_use' || event.type === 'agent.mcp_tool_use')
      this.toolUses.set(String(data.id), { id: String(data.id), name: String(data.name), input: data.input });
    if (event.type === 'session.status_idle') {
      const reason = (data.stop_reason ?? { type: 'end_turn' }) as { type: string; event_ids?: string[] };
      this.pending =
        reason.type === 'requires_action'
          ? (reason.event_ids ?? []).map((id) => this.toolUses.get(id) ?? { id, name: '(tool)', input: {} })
          : [];
      for (const listener of [...this.idleListeners]) listener(reason);
    }
  }
}
