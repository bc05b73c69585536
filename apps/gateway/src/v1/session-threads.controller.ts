import { Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError, DataplaneSubjects, ThreadSubjects, type Actor } from '@agentry/contracts';
import { ListSessionThreadsParamsSchema, type ListSessionThreadsParams } from '@agentry/contracts/v1';
import { RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodQuery } from '../http/zod-params.js';
import { ConsentRedaction } from '../streaming/consent-redaction.js';
import { SessionStreamService } from '../streaming/session-stream.service.js';
import { streamStart } from './stream-resume.js';

const PageCursorSchema = z.string().regex(/^\d{1,15}$/, 'page: not a cursor this API returned');
export const ListThreadEventsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  page: PageCursorSchema.nullish(),
});
type ListThreadEventsQuery = z.infer<typeof ListThreadEventsQuerySchema>;

/**
 * Threads of a multi-agent session (CMA). Each child thread keeps its own event log, read and streamed
 * like a session's; the primary thread's log is the session's own.
 */
@Controller('v1/sessions/:id/threads')
export class SessionThreadsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly streams: SessionStreamService,
    private readonly consent: ConsentRedaction,
  ) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @ZodQuery(ListSessionThreadsParamsSchema) query: ListSessionThreadsParams,
  ) {
    const offset = query.page ? Number(parseOrThrow(PageCursorSchema, query.page, 'page')) : 0;
    const page = await this.rpc.request(ThreadSubjects.list, {
      actor,
      sessionId,
      limit: query.limit,
      offset,
      ...(query.statuses ? { statuses: query.statuses } : {}),
    });
    return { data: page.data, next_page: page.hasMore ? String(offset + page.data.length) : null };
  }

  @Get(':threadId')
  get(@CurrentActor() actor: Actor, @Param('id') sessionId: string, @Param('threadId') threadId: string) {
    return this.rpc.request(ThreadSubjects.get, { actor, sessionId, threadId });
  }

  @Post(':threadId/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') sessionId: string, @Param('threadId') threadId: string) {
    return this.rpc.request(ThreadSubjects.archive, { actor, sessionId, threadId });
  }

  /** The thread's own events, in order; `next_page` is the cursor of the next page. */
  @Get(':threadId/events')
  async events(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @Param('threadId') threadId: string,
    @ZodQuery(ListThreadEventsQuerySchema) query: ListThreadEventsQuery,
  ) {
    const log = await this.logOf(actor, sessionId, threadId);
    const page = await this.rpc.request(DataplaneSubjects.listEvents, {
      actor,
      sessionId: log,
      limit: query.limit,
      order: 'asc',
      afterSeq: query.page ? Number(query.page) : 0,
    });
    const last = page.data.at(-1);
    const data = await this.consent.forCaller(actor, sessionId, page.data);
    return { data: data.map((s) => s.event), next_page: page.hasMore && last ? String(last.seq) : null };
  }

  /** SSE of the thread's events: live by default, resumed from `Last-Event-ID` (or `?after=`) with no gap. */
  @Get(':threadId/stream')
  async stream(
    @CurrentActor() actor: Actor,
    @Param('id') sessionId: string,
    @Param('threadId') threadId: string,
    @Query('after') afterParam: string | undefined,
    @Query('event_deltas') deltasParam: unknown,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const { after, deltas } = streamStart(lastEventId, afterParam, deltasParam);
    // Fails with 404 before any stream byte is written when the thread is not the caller's.
    const log = await this.logOf(actor, sessionId, threadId);
    if (!reply.raw.writable) throw new AppError('INVALID_REQUEST', 'client went away');
    const reveals = await this.consent.reveals(actor, sessionId);
    reply.hijack();
    await this.streams.run(actor, log, after, reply.raw, 'v1', deltas, reveals);
  }

  /** Whose log holds the thread's events: the session's for its primary thread, the thread's own otherwise. */
  private async logOf(actor: Actor, sessionId: string, threadId: string): Promise<string> {
    const thread = await this.rpc.request(ThreadSubjects.get, { actor, sessionId, threadId });
    return thread.parent_thread_id === null ? sessionId : threadId;
  }
}
