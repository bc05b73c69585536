import { Controller } from '@nestjs/common';
import { DataplaneSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { EventsService } from './events.service.js';

@Controller()
export class EventsHandler {
  constructor(private readonly events: EventsService) {}

  @RpcHandler(S.appendEvents)
  async append(req: RpcParsedRequest<typeof S.appendEvents>) {
    const { events, replayed } = await this.events.append(
      req.actor,
      req.sessionId,
      req.events,
      req.idempotency,
    );
    return { data: events, ...(replayed ? { replayed } : {}) };
  }

  @RpcHandler(S.listEvents)
  list(req: RpcParsedRequest<typeof S.listEvents>) {
    return this.events.list(req.actor, req);
  }
}
