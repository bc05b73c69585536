import { Controller, Get, UseFilters } from '@nestjs/common';
import { WorkSubjects, type Actor } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** `/api/hands/status`: queued self-hosted work and when each worker last polled, in the caller's namespace. */
@Controller('api/hands')
@UseFilters(ApiErrorFilter)
export class ApiHandsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('status')
  status(@CurrentActor() actor: Actor) {
    return this.rpc.request(WorkSubjects.handsStatus, {
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
    });
  }
}
