import { v1EventToApi, type StoredEvent, type StreamOnlyEvent } from '@agentry/contracts';
import { withheldConsent } from './consent-redaction.js';

/** `/v1` frames carry the CMA event; `/api` frames the AgentScope DTO (payload nested, `seq` exposed). */
export type SseFormat = 'v1' | 'api';

/** Every frame: `id: <seq>`, `event: <type>` and one JSON `data:` line. */
function sseFrame(format: SseFormat, sessionId: string, stored: StoredEvent): string {
  if (format === 'v1')
    return `id: ${stored.seq}\nevent: ${stored.event.type}\ndata: ${JSON.stringify(stored.event)}\n\n`;
  const dto = v1EventToApi(stored.event, { sessionId, seq: stored.seq });
  return `id: ${stored.seq}\nevent: ${dto.type}\ndata: ${JSON.stringify(dto)}\n\n`;
}

/**
 * A token preview: no `id:` line, so it never moves the client's Last-Event-ID (previews are not in
 * the log and are never replayed). The same frame serves `/v1` and `/api`.
 */
export function previewFrame(event: StreamOnlyEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream; SSE clients ignore it. */
export const SSE_HEARTBEAT = ': ping\n\n';

/**
 * One event's frames, rendered at most once per format (and, for a consent link, per whether the client may
 * read it) however many clients receive it.
 */
export class RenderedEvent {
  private readonly frames = new Map<string, string>();

  constructor(
    readonly stored: StoredEvent,
    private readonly sessionId: string,
  ) {}

  frame(format: SseFormat, revealsConsent = true): string {
    const withheld = !revealsConsent && this.stored.event.type === 'agent.mcp_elicitation';
    const key = `${format}:${withheld}`;
    let frame = this.frames.get(key);
    if (frame === undefined) {
      const stored = withheld ? { ...this.stored, event: withheldConsent(this.stored.event) } : this.stored;
      frame = sseFrame(format, this.sessionId, stored);
      this.frames.set(key, frame);
    }
    return frame;
  }
}
