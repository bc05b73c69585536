import { Controller, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CheckpointSubjects as C,
  ListCheckpointsParamsSchema,
  RollbackSessionRequestSchema,
  type Checkpoint,
  type ForkSessionRequest,
  type RollbackResult,
  ControlSubjects as R,
  ControlSubjects as S,
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  MetadataPatchSchema,
  UpdateSessionRequestSchema,
  type Actor,
} from '@agentry/contracts';
import {
  ApiCreateSessionRequestSchema,
  ApiListSessionsParamsSchema,
  apiListSessionsToV1,
  apiSessionToV1,
  v1SessionToApi,
  type ApiCreateSessionRequest,
  type ApiListSessionsParams,
} from '@agentry/contracts/api';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/**
 * What a running session lets change. AgentScope's `agentOverrides`, `environmentId` and
 * `memoryStoreIds` are fixed at creation here, so naming them is a 400 that says which field.
 */
export const ApiUpdateSessionSchema = z.strictObject({
  title: z.string().nullish(),
  metadata: MetadataPatchSchema.nullish(),
  vaultIds: z.array(z.string().min(1)).optional(),
});
type ApiUpdateSession = z.infer<typeof ApiUpdateSessionSchema>;

const answersSession = { reply: v1SessionToApi };

/** A fork in `/api` spelling: where it starts, and optionally the agent (latest version unless pinned). */
export const ApiForkSessionSchema = z
  .strictObject({
    checkpoint: z.string().min(1).optional(),
    eventId: z.string().min(1).optional(),
    agentId: z.string().min(1).optional(),
    agentVersion: z.number().int().min(1).optional(),
  })
  .refine((b) => (b.checkpoint === undefined) !== (b.eventId === undefined), {
    message: 'give exactly one of checkpoint or eventId',
  })
  .refine((b) => b.agentVersion === undefined || b.agentId !== undefined, {
    message: 'agentVersion: needs agentId',
  });
type ApiForkSession = z.infer<typeof ApiForkSessionSchema>;

const apiCheckpoint = (c: Checkpoint) => ({
  id: c.id,
  sessionId: c.session_id,
  eventId: c.event_id,
  seq: c.seq,
  createdAt: c.created_at,
});
const apiRollback = (r: RollbackResult) => ({
  sessionId: r.session_id,
  checkpoint: r.checkpoint_id,
  eventId: r.event_id,
});

/** `/api/sessions`: the session lifecycle over the `/v1` session handlers. */
@Controller('api/sessions')
@UseFilters(ApiErrorFilter)
export class ApiSessionsController extends rpcRoutes({
  get: { route: 'GET :id', subject: S.getSession, ...answersSession },
  archive: { route: 'POST :id/archive', subject: R.archiveSession, ...answersSession },
  restore: { route: 'POST :id/restore', subject: R.restoreSession, ...answersSession },
  remove: { route: 'DELETE :id', subject: R.deleteSession, status: 204 },
  checkpoints: {
    route: 'GET :id/checkpoints',
    subject: C.list,
    query: ListCheckpointsParamsSchema,
    page: apiCheckpoint,
  },
  rollback: {
    route: 'POST :id/rollback',
    subject: C.rollback,
    body: RollbackSessionRequestSchema,
    reply: apiRollback,
  },
}) {
  @Post(':id/fork')
  @HttpCode(200)
  async fork(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiForkSessionSchema) body: ApiForkSession,
  ) {
    const request: ForkSessionRequest = {
      ...(body.checkpoint ? { checkpoint: body.checkpoint } : {}),
      ...(body.eventId ? { event_id: body.eventId } : {}),
      ...(body.agentId
        ? {
            agent: {
              type: 'agent' as const,
              id: body.agentId,
              ...(body.agentVersion ? { version: body.agentVersion } : {}),
            },
          }
        : {}),
    };
    return v1SessionToApi(await this.rpc.request(S.forkSession, { actor, id, body: request }));
  }

  @Post()
  @HttpCode(200)
  async create(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiCreateSessionRequestSchema) body: ApiCreateSessionRequest,
  ) {
    const request = parseOrThrow(CreateSessionRequestSchema, apiSessionToV1(body), 'body');
    return v1SessionToApi(await this.rpc.request(S.createSession, { actor, body: request }));
  }

  /** `status=active` (default) | `archived` | `all`. */
  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ApiListSessionsParamsSchema) params: ApiListSessionsParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const query = parseOrThrow(ListSessionsParamsSchema, apiListSessionsToV1(params), 'query');
    const page = await this.rpc.request(R.listSessions, { actor, query });
    const sessions = toApiList(reply, page, v1SessionToApi);
    return params.status === 'archived' ? sessions.filter((s) => s.archivedAt !== null) : sessions;
  }

  @Patch(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiUpdateSessionSchema) body: ApiUpdateSession,
  ) {
    const mapped = { title: body.title, metadata: body.metadata, vault_ids: body.vaultIds };
    const request = parseOrThrow(
      UpdateSessionRequestSchema,
      Object.fromEntries(Object.entries(mapped).filter(([, v]) => v !== undefined)),
      'body',
    );
    return v1SessionToApi(await this.rpc.request(R.updateSession, { actor, id, body: request }));
  }
}
