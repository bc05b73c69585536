import { Controller, Get } from '@nestjs/common';
import { WorkSubjects, type Actor } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';

/** The Hands, cluster and self-hosted alike, as the caller's namespace sees them (Agentry extension; same body as `/api/hands/status`). */
@Controller('v1/hands')
export class HandsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('status')
  status(@CurrentActor() actor: Actor) {
    return this.rpc.request(WorkSubjects.handsStatus, {
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
    });
  }
}
