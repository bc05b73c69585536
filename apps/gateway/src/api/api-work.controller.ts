import { Controller, Get, HttpCode, Inject, Param, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { UpdateWorkRequestSchema, WorkSubjects, type WorkPrincipal } from '@agentry/contracts';
import {
  ApiAckWorkRequestSchema,
  ApiHeartbeatWorkRequestSchema,
  ApiListWorkQuerySchema,
  ApiPollWorkQuerySchema,
  ApiStopWorkRequestSchema,
  ApiUpdateWorkRequestSchema,
  v1HeartbeatToApi,
  v1WorkStatsToApi,
  v1WorkToApi,
  type ApiAckWorkRequest,
  type ApiHeartbeatWorkRequest,
  type ApiListWorkQuery,
  type ApiPollWorkQuery,
  type ApiStopWorkRequest,
  type ApiUpdateWorkRequest,
} from '@agentry/contracts/api';
import { CLOCK, RpcClient, type Clock } from '@agentry/platform';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { CurrentWorkPrincipal } from '../workers/current-work-principal.decorator.js';
import { WorkQueueRoute } from '../workers/worker-route.decorator.js';
import { WorkQueueService } from '../workers/work-queue.service.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/**
 * AgentScope's worker protocol over the same work queue as `/v1/environments/{id}/work`: the environment
 * key (`X-Builder-Environment-Key`) opens every route; users and API keys may also list, get and count.
 */
@Controller('api/environments/:id/work')
@UseFilters(ApiErrorFilter)
export class ApiWorkController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly queue: WorkQueueService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Long poll: 200 with an item as soon as one is claimed, 204 after `timeoutMs` (≤ 25 s) without. */
  @Get('poll')
  @WorkQueueRoute()
  async poll(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @ZodQuery(ApiPollWorkQuerySchema) query: ApiPollWorkQuery,
    @Res() reply: FastifyReply,
  ) {
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const work = await this.queue.longPoll(principal, query.workerId, query.timeoutMs, gone.signal);
    if (work) await reply.status(200).send(v1WorkToApi(work));
    else await reply.status(204).send();
  }

  @Get()
  @WorkQueueRoute({ users: true })
  async list(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @ZodQuery(ApiListWorkQuerySchema) query: ApiListWorkQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.queue.list(principal, query);
    return toApiList(reply, page, v1WorkToApi);
  }

  @Get('stats')
  @WorkQueueRoute({ users: true })
  async stats(@CurrentWorkPrincipal() principal: WorkPrincipal) {
    return v1WorkStatsToApi(await this.rpc.request(WorkSubjects.stats, { principal }), this.clock.nowMs());
  }

  @Get(':workId')
  @WorkQueueRoute({ users: true })
  async get(@CurrentWorkPrincipal() principal: WorkPrincipal, @Param('workId') workId: string) {
    return v1WorkToApi(await this.rpc.request(WorkSubjects.get, { principal, workId }));
  }

  /** Metadata patch; AgentScope's `workerId` and `workDir` are kept as metadata keys. */
  @Post(':workId')
  @HttpCode(200)
  @WorkQueueRoute()
  async update(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodBody(ApiUpdateWorkRequestSchema) body: ApiUpdateWorkRequest,
  ) {
    const metadata = {
      ...body.metadata,
      ...(body.workerId ? { workerId: body.workerId } : {}),
      ...(body.workDir ? { workDir: body.workDir } : {}),
    };
    const request = parseOrThrow(UpdateWorkRequestSchema, { metadata }, 'body');
    return v1WorkToApi(await this.rpc.request(WorkSubjects.update, { principal, workId, body: request }));
  }

  @Post(':workId/ack')
  @HttpCode(200)
  @WorkQueueRoute()
  async ack(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodBody(ApiAckWorkRequestSchema.default({})) body: ApiAckWorkRequest,
  ) {
    return v1WorkToApi(await this.rpc.request(WorkSubjects.ack, { principal, workId, ...body }));
  }

  /** Extends the lease; a stale `expectedLastHeartbeat` is a 412 with `error.details.current_state`. */
  @Post(':workId/heartbeat')
  @HttpCode(200)
  @WorkQueueRoute()
  async heartbeat(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodBody(ApiHeartbeatWorkRequestSchema.default({})) body: ApiHeartbeatWorkRequest,
  ) {
    return v1HeartbeatToApi(await this.queue.heartbeat({ principal, workId, ...body }));
  }

  @Post(':workId/stop')
  @HttpCode(200)
  @WorkQueueRoute()
  async stop(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodBody(ApiStopWorkRequestSchema.default({})) body: ApiStopWorkRequest,
  ) {
    return v1WorkToApi(await this.rpc.request(WorkSubjects.stop, { principal, workId, ...body }));
  }
}
