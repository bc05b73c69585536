import { Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  HeartbeatWorkParamsSchema,
  PollWorkParamsSchema,
  StopWorkRequestSchema,
  UpdateWorkRequestSchema,
  WorkStateSchema,
  WorkSubjects,
  type HeartbeatWorkParams,
  type PollWorkParams,
  type StopWorkRequest,
  type UpdateWorkRequest,
  type WorkPrincipal,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { CurrentWorkPrincipal } from './current-work-principal.decorator.js';
import { WorkQueueRoute } from './worker-route.decorator.js';
import { WorkQueueService } from './work-queue.service.js';

export const ListWorkParamsSchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  page: z.string().min(1).nullish(),
  state: WorkStateSchema.optional(),
});
type ListWorkParams = z.infer<typeof ListWorkParamsSchema>;

const WorkerIdSchema = z.string().min(1).max(200, 'must be at most 200 characters');

/**
 * `/v1/environments/{id}/work`, as `client.beta.environments.work` and its `EnvironmentWorker` call it.
 * The environment key opens every route; users and API keys read (list, retrieve, stats); a polled
 * item's sessions token heartbeats and stops that item.
 */
@Controller('v1/environments/:id/work')
export class WorkController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly queue: WorkQueueService,
  ) {}

  /** One item (200, with its `secret`) or nothing (204) within `block_ms`. */
  @Get('poll')
  @WorkQueueRoute()
  async poll(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @ZodQuery(PollWorkParamsSchema) query: PollWorkParams,
    @Headers('anthropic-worker-id') workerIdHeader: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const workerId =
      workerIdHeader === undefined
        ? 'anonymous'
        : parseOrThrow(WorkerIdSchema, workerIdHeader, 'Anthropic-Worker-ID');
    const work = await this.queue.pollOnce(
      principal,
      workerId,
      query.block_ms ?? 0,
      query.reclaim_older_than_ms,
    );
    if (work) await reply.status(200).send(work);
    else await reply.status(204).send();
  }

  @Get()
  @WorkQueueRoute({ users: true })
  list(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @ZodQuery(ListWorkParamsSchema) query: ListWorkParams,
  ) {
    return this.queue.list(principal, query);
  }

  @Get('stats')
  @WorkQueueRoute({ users: true })
  stats(@CurrentWorkPrincipal() principal: WorkPrincipal) {
    return this.rpc.request(WorkSubjects.stats, { principal });
  }

  @Get(':workId')
  @WorkQueueRoute({ users: true })
  get(@CurrentWorkPrincipal() principal: WorkPrincipal, @Param('workId') workId: string) {
    return this.rpc.request(WorkSubjects.get, { principal, workId });
  }

  /** Metadata, merged (`null` deletes a key). */
  @Post(':workId')
  @HttpCode(200)
  @WorkQueueRoute()
  update(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodBody(UpdateWorkRequestSchema) body: UpdateWorkRequest,
  ) {
    return this.rpc.request(WorkSubjects.update, { principal, workId, body });
  }

  /** `queued` → `starting`: the worker has the item. */
  @Post(':workId/ack')
  @HttpCode(200)
  @WorkQueueRoute()
  ack(@CurrentWorkPrincipal() principal: WorkPrincipal, @Param('workId') workId: string) {
    return this.rpc.request(WorkSubjects.ack, { principal, workId });
  }

  /** Extends the lease; a stale `expected_last_heartbeat` is a 412 with `error.details.current_state`. */
  @Post(':workId/heartbeat')
  @HttpCode(200)
  @WorkQueueRoute({ sessionsToken: true })
  heartbeat(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodQuery(HeartbeatWorkParamsSchema) query: HeartbeatWorkParams,
  ) {
    return this.queue.heartbeat({
      principal,
      workId,
      ...(query.desired_ttl_seconds !== undefined ? { desiredTtlSeconds: query.desired_ttl_seconds } : {}),
      ...(query.expected_last_heartbeat !== undefined
        ? { expectedLastHeartbeat: query.expected_last_heartbeat }
        : {}),
    });
  }

  /** Graceful (`stopping`) or, with `{"force": true}`, immediate (`stopped`). */
  @Post(':workId/stop')
  @HttpCode(200)
  @WorkQueueRoute({ sessionsToken: true })
  stop(
    @CurrentWorkPrincipal() principal: WorkPrincipal,
    @Param('workId') workId: string,
    @ZodBody(StopWorkRequestSchema.default({})) body: StopWorkRequest,
  ) {
    return this.rpc.request(WorkSubjects.stop, {
      principal,
      workId,
      ...(body.force !== undefined ? { force: body.force } : {}),
    });
  }
}
