import { Controller, Get, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AuditListQuerySchema,
  ControlSubjects as A,
  type Actor,
  type AuditListQuery,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodQuery } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';
import { toApiList } from '../api-page.js';

/** `GET /api/admin/audit-log`: newest first; the next page's cursor is in `x-next-page`. */
@Controller('api/admin/audit-log')
@UseFilters(ApiErrorFilter)
export class AuditLogController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(AuditListQuerySchema) query: AuditListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(A.listAuditLog, { actor, query }), (e) => e);
  }
}
