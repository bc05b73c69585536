import { Controller, UseInterceptors } from '@nestjs/common';
import { DataplaneSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { EventsService } from './events.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class EventsHandler {
  constructor(private readonly events: EventsService) {}

  @RpcHandler(S.appendEvents)
  async append(@RpcBody(S.appendEvents) req: RpcParsedRequest<typeof S.appendEvents>) {
    const { events, replayed } = await this.events.append(req.actor, req.sessionId, req.events, req.idempotency);
    return { data: events, ...(replayed ? { replayed } : {}) };
  }

  @RpcHandler(S.listEvents)
  list(@RpcBody(S.listEvents) req: RpcParsedRequest<typeof S.listEvents>) {
    return this.events.list(req.actor, req);
  }
}
