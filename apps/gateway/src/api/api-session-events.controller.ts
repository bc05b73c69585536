import { Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AppError,
  ControlSubjects,
  DataplaneSubjects,
  SendEventsRequestSchema,
  StreamEventsParamsSchema,
  type Actor,
  type AppendIdempotency,
  type StoredEvent,
} from '@agentry/contracts';
import {
  ApiSendEventsRequestSchema,
  apiEventToV1,
  v1EventToApi,
  type ApiSendEventsRequest,
} from '@agentry/contracts/api';
import { RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { REPLAYED_HEADER } from '../idempotency/idempotency.interceptor.js';
import { RequestIdempotency } from '../idempotency/request-idempotency.decorator.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { ConsentRedaction, isCreator } from '../streaming/consent-redaction.js';
import { SessionStreamService } from '../streaming/session-stream.service.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { NEXT_PAGE_HEADER } from './api-page.js';

/** `event_deltas[]=agent.message` (and `agent.thinking`): token previews on this stream. */
const DeltasQuerySchema = StreamEventsParamsSchema.pick({ event_deltas: true });

const SeqSchema = z.coerce.number().int().nonnegative('must be a non-negative event sequence number');

export const ApiListEventsQuerySchema = z.object({
  /** Only events after this seq (exclusive). */
  after: SeqSchema.default(0),
  types: z.array(z.string().min(1)).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});
type ApiListEventsQuery = z.infer<typeof ApiListEventsQuerySchema>;

/** `/api/sessions/{id}/events`: AgentScope's `{type, payload}` events over the `/v1` event log. */
@Controller('api/sessions/:id/events')
@UseFilters(ApiErrorFilter)
export class ApiSessionEventsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly streams: SessionStreamService,
    private readonly consent: ConsentRedaction,
  ) {}

  /** Appends the batch (all or nothing) and returns the recorded events. */
  @Post()
  @HttpCode(200)
  async send(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @ZodBody(ApiSendEventsRequestSchema) body: ApiSendEventsRequest,
    @RequestIdempotency() idempotency: AppendIdempotency | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { events } = parseOrThrow(
      SendEventsRequestSchema,
      { events: body.events.map(apiEventToV1) },
      'body',
    );
    const result = await this.rpc.request(DataplaneSubjects.appendEvents, {
      actor,
      sessionId,
      events,
      idempotency,
    });
    if (result.replayed) void reply.header(REPLAYED_HEADER, 'true');
    return result.data.map((stored) => toDto(sessionId, stored));
  }

  /** Events after `after`, in seq order; when more remain, their cursor (a seq) is in `x-next-page`. */
  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @ZodQuery(ApiListEventsQuerySchema) query: ApiListEventsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      afterSeq: query.after,
      limit: query.limit,
      order: 'asc',
      ...(query.types ? { types: query.types } : {}),
    });
    const last = page.data.at(-1);
    if (page.hasMore && last) void reply.header(NEXT_PAGE_HEADER, String(last.seq));
    const data = await this.consent.forCaller(actor, sessionId, page.data);
    return data.map((stored) => toDto(sessionId, stored));
  }

  /**
   * SSE. As in AgentScope, a stream without a resume point replays the whole log, then tails;
   * `Last-Event-ID` (every frame carries `id: <seq>`) or `?after=` resumes with no gap and no duplicate.
   * `event_deltas[]` adds the same token previews as `/v1`, in CMA's shape and without an `id:`.
   */
  @Get('stream')
  async stream(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @Query('after') afterParam: string | undefined,
    @Query('event_deltas') deltasParam: unknown,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const resume = lastEventId || afterParam;
    const after = resume ? parseOrThrow(SeqSchema, resume, lastEventId ? 'Last-Event-ID' : 'after') : 0;
    const deltas = parseOrThrow(DeltasQuerySchema, { event_deltas: deltasParam }, 'query').event_deltas ?? [];
    const session = await this.rpc.request(ControlSubjects.getSession, { actor, id: sessionId });
    if (!reply.raw.writable) throw new AppError('INVALID_REQUEST', 'client went away');
    reply.hijack();
    const reveals = isCreator(actor, session.created_by);
    await this.streams.run(actor, sessionId, after, reply.raw, 'api', deltas, reveals);
  }
}

function toDto(sessionId: string, stored: StoredEvent) {
  return v1EventToApi(stored.event, { sessionId, seq: stored.seq });
}
