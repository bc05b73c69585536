import { Controller, Get, UseFilters, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CreateReplayBatchRequestSchema,
  CreateReplayRequestSchema,
  ReplaySubjects as S,
  type Actor,
} from '@agentry/contracts';
import {
  ApiListReplaysParamsSchema,
  apiListReplaysToV1,
  replayBatchToApi,
  replayToApi,
  type ApiListReplaysParams,
} from '@agentry/contracts/api';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/** Session replays in `/api` spelling, over the `/v1` replay handlers. */
@Controller('api')
@UseFilters(ApiErrorFilter)
export class ApiReplaysController extends rpcRoutes({
  replay: {
    route: 'POST sessions/:id/replay',
    subject: S.start,
    body: CreateReplayRequestSchema,
    status: 202,
    reply: replayToApi,
  },
  get: { route: 'GET replays/:id', subject: S.get, reply: replayToApi },
  replayBatch: {
    route: 'POST agents/:id/replays',
    subject: S.startBatch,
    body: CreateReplayBatchRequestSchema,
    status: 202,
    reply: replayBatchToApi,
  },
  getBatch: { route: 'GET replay-batches/:id', subject: S.getBatch, reply: replayBatchToApi },
}) {
  /** `sessionId` / `batchId` narrow the list; the next page's cursor is in `x-next-page`. */
  @Get('replays')
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ApiListReplaysParamsSchema) params: ApiListReplaysParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.rpc.request(S.list, { actor, query: apiListReplaysToV1(params) });
    return toApiList(reply, page, replayToApi);
  }
}
