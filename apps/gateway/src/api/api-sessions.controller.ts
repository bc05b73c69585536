import { Controller, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiSessionSchema,
  ApiCreateSessionRequestSchema,
  ApiListSessionsParamsSchema,
  ControlSubjects as R,
  ControlSubjects as S,
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  MetadataPatchSchema,
  UpdateSessionRequestSchema,
  apiListSessionsToV1,
  apiSessionToV1,
  v1SessionToApi,
  type Actor,
  type ApiCreateSessionRequest,
  type ApiListSessionsParams,
} from '@agentry/contracts';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/**
 * What a running session lets change. AgentScope's `agentOverrides`, `environmentId` and
 * `memoryStoreIds` are fixed at creation here, so naming them is a 400 that says which field.
 */
const ApiUpdateSessionSchema = z.strictObject({
  title: z.string().nullish(),
  metadata: MetadataPatchSchema.nullish(),
  vaultIds: z.array(z.string().min(1)).optional(),
});
type ApiUpdateSession = z.infer<typeof ApiUpdateSessionSchema>;

const answersSession = { reply: v1SessionToApi, decorators: [DocReply(ApiSessionSchema)] };

/** `/api/sessions`: the session lifecycle over the `/v1` session handlers. */
@Controller('api/sessions')
@UseFilters(ApiErrorFilter)
export class ApiSessionsController extends rpcRoutes({
  get: { route: 'GET :id', subject: S.getSession, ...answersSession },
  archive: { route: 'POST :id/archive', subject: R.archiveSession, ...answersSession },
  restore: { route: 'POST :id/restore', subject: R.restoreSession, ...answersSession },
  remove: { route: 'DELETE :id', subject: R.deleteSession, status: 204 },
}) {
  @Post()
  @HttpCode(200)
  @DocReply(ApiSessionSchema)
  async create(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiCreateSessionRequestSchema) body: ApiCreateSessionRequest,
  ) {
    const request = parseOrThrow(CreateSessionRequestSchema, apiSessionToV1(body), 'body');
    return v1SessionToApi(await this.rpc.request(S.createSession, { actor, body: request }));
  }

  /** `status=active` (default) | `archived` | `all`. */
  @Get()
  @DocReply(ApiSessionSchema, { list: true })
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
  @DocReply(ApiSessionSchema)
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
