import type { StreamOnlyEvent } from '@agentry/contracts';

/** A harness preview: text of the `agent.message` or `agent.thinking` event that will carry `event_id`. */
interface TextPreview {
  type: 'delta.text' | 'delta.thinking';
  event_id: string;
  text: string;
}

function isTextPreview(delta: Record<string, unknown>): delta is Record<string, unknown> & TextPreview {
  return (
    (delta.type === 'delta.text' || delta.type === 'delta.thinking') &&
    typeof delta.event_id === 'string' &&
    typeof delta.text === 'string'
  );
}

/**
 * Turns one turn's token previews into CMA's `event_start` / `event_delta` and sends them in
 * batches: what arrives within `flushMs` goes out as one message, consecutive chunks of one event
 * joined into one delta. `flush()` before a committed event keeps previews ahead of their final event.
 */
export class PreviewBatcher {
  private pending: StreamOnlyEvent[] = [];
  private readonly started = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly send: (events: StreamOnlyEvent[]) => void,
    private readonly flushMs: number,
  ) {}

  /** Tool-input previews have no CMA form and are dropped. */
  add(delta: Record<string, unknown>): void {
    if (!isTextPreview(delta) || delta.text === '') return;
    if (!this.started.has(delta.event_id)) {
      this.started.add(delta.event_id);
      this.pending.push({
        type: 'event_start',
        event: { id: delta.event_id, type: delta.type === 'delta.text' ? 'agent.message' : 'agent.thinking' },
      });
    }
    // CMA previews thinking as start-only: the final `agent.thinking` concludes it.
    if (delta.type === 'delta.text') this.appendText(delta.event_id, delta.text);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  private appendText(eventId: string, text: string): void {
    const last = this.pending.at(-1);
    if (last?.type === 'event_delta' && last.event_id === eventId) last.delta.content.text += text;
    else
      this.pending.push({
        type: 'event_delta',
        event_id: eventId,
        delta: { type: 'content_delta', content: { type: 'text', text } },
      });
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.send(batch);
  }
}
