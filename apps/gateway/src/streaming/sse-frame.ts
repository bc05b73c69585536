import { v1EventToApi, type StoredEvent, type StreamOnlyEvent } from '@agentry/contracts';

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

/** One event's frames, rendered at most once per format however many clients receive it. */
export class RenderedEvent {
  private v1: string | undefined;
  private api: string | undefined;

  constructor(
    readonly stored: StoredEvent,
    private readonly sessionId: string,
  ) {}

  frame(format: SseFormat): string {
    if (format === 'v1') return (this.v1 ??= sseFrame('v1', this.sessionId, this.stored));
    return (this.api ??= sseFrame('api', this.sessionId, this.stored));
  }
}
