import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Actor } from '@agentry/contracts';
import { UsageQuerySchema, UsageSubjects, type UsageQuery } from '@agentry/contracts/v1';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodQuery } from '../http/zod-params.js';
import { usageReportCsv } from './usage-csv.js';

/**
 * Settled model usage and list cost from the usage ledger (Agentry extension; see docs/budgets.md), as
 * JSON or, with `format=csv`, as a CSV download of the same rows.
 */
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  async get(
    @CurrentActor() actor: Actor,
    @ZodQuery(UsageQuerySchema) query: UsageQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { format, ...rest } = query;
    const report = await this.rpc.request(UsageSubjects.query, { actor, query: rest });
    if (format !== 'csv') return report;
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="usage.csv"');
    return usageReportCsv(report, rest.group_by);
  }
}
