import type { ServerResponse } from 'node:http';
import { v1EventToApi, type StoredEvent } from '@agentry/contracts';
import { SseWriter } from '../streaming/sse-writer.js';

/** SSE frames whose `data` is the `/api` event DTO (payload nested, `seq` exposed); `id:` is the seq. */
export class ApiSseWriter extends SseWriter {
  constructor(
    private readonly raw: ServerResponse,
    private readonly sessionId: string,
  ) {
    super(raw);
  }

  override event(stored: StoredEvent): void {
    if (this.isClosed) return;
    const dto = v1EventToApi(stored.event, { sessionId: this.sessionId, seq: stored.seq });
    this.raw.write(`id: ${stored.seq}\nevent: ${dto.type}\ndata: ${JSON.stringify(dto)}\n\n`);
  }
}
