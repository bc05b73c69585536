import { Controller, Get } from '@nestjs/common';
import {
  UsageQuerySchema,
  UsageReportSchema,
  UsageSubjects,
  type Actor,
  type UsageQuery,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { ZodQuery } from '../http/zod-params.js';

/** Settled model usage and list cost from the usage ledger (Agentry extension; see docs/budgets.md). */
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @DocReply(UsageReportSchema)
  get(@CurrentActor() actor: Actor, @ZodQuery(UsageQuerySchema) query: UsageQuery) {
    return this.rpc.request(UsageSubjects.query, { actor, query });
  }
}
