import { Controller, HttpCode, Get, Headers, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AppError,
  ControlSubjects,
  DataplaneSubjects,
  SendEventsRequestSchema,
  type Actor,
  type AppendIdempotency,
  type SendEventsRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { REPLAYED_HEADER } from '../idempotency/idempotency.interceptor.js';
import { RequestIdempotency } from '../idempotency/request-idempotency.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { ConsentRedaction, isCreator } from '../streaming/consent-redaction.js';
import { SessionStreamService } from '../streaming/session-stream.service.js';
import { streamStart } from './stream-resume.js';
import type { WorkerRequest } from '../workers/worker-credential.resolver.js';
import { assertWorkerMaySend } from '../workers/worker-events.js';
import { SessionsTokenRoute } from '../workers/worker-route.decorator.js';

export const ListEventsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  page: z
    .string()
    .regex(/^\d{1,15}$/, 'page: not a cursor this API returned')
    .nullish(),
  order: z.enum(['asc', 'desc']).default('asc'),
  types: z.array(z.string()).optional(),
});
type ListEventsQuery = z.infer<typeof ListEventsQuerySchema>;

@Controller('v1/sessions/:id/events')
export class SessionEventsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly streams: SessionStreamService,
    private readonly consent: ConsentRedaction,
  ) {}

  /** Appends a batch (all or nothing) and returns the persisted events. */
  @Post()
  @HttpCode(200)
  @SessionsTokenRoute()
  async send(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @ZodBody(SendEventsRequestSchema) body: SendEventsRequest,
    @Req() request: WorkerRequest,
    @RequestIdempotency() idempotency: AppendIdempotency | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (request.workPrincipal?.sessionId) assertWorkerMaySend(body.events);
    const result = await this.rpc.request(DataplaneSubjects.appendEvents, {
      actor,
      sessionId,
      events: body.events,
      idempotency,
    });
    if (result.replayed) void reply.header(REPLAYED_HEADER, 'true');
    return { data: result.data.map((stored) => stored.event) };
  }

  /** The complete log, in order; `next_page` is the cursor of the next page. */
  @Get()
  @SessionsTokenRoute()
  async list(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @ZodQuery(ListEventsQuerySchema) query: ListEventsQuery,
  ) {
    const cursor = query.page ? Number(query.page) : undefined;
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId,
      limit: query.limit,
      order: query.order,
      ...(query.order === 'asc' ? { afterSeq: cursor ?? 0 } : cursor ? { beforeSeq: cursor } : {}),
      ...(query.types ? { types: query.types } : {}),
    });
    const last = page.data.at(-1);
    const data = await this.consent.forCaller(actor, sessionId, page.data);
    return { data: data.map((s) => s.event), next_page: page.hasMore && last ? String(last.seq) : null };
  }

  /**
   * SSE. Live-only by default (CMA); `Last-Event-ID` or `?after=` resumes with no gap and no duplicate.
   * `event_deltas[]=agent.message|agent.thinking` adds token previews (`event_start`/`event_delta`), live only.
   */
  @Get('stream')
  @SessionsTokenRoute()
  async stream(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @Query('after') afterParam: string | undefined,
    @Query('event_deltas') deltasParam: unknown,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const { after, deltas } = streamStart(lastEventId, afterParam, deltasParam);
    // Fails with 404 before any stream byte is written when the session is not the caller's.
    const session = await this.rpc.request(ControlSubjects.getSession, { actor, id: sessionId });
    if (!reply.raw.writable) throw new AppError('INVALID_REQUEST', 'client went away');
    reply.hijack();
    const reveals = isCreator(actor, session.created_by);
    await this.streams.run(actor, sessionId, after, reply.raw, 'v1', deltas, reveals);
  }
}
