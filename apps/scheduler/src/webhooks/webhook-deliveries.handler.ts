import { Controller } from '@nestjs/common';
import { WebhookDeliverySubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';

@Controller()
export class WebhookDeliveriesHandler {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @RpcHandler(S.listDeliveries)
  list(req: RpcParsedRequest<typeof S.listDeliveries>) {
    return this.deliveries.list(req.actor, req.id, req.query);
  }

  @RpcHandler(S.getDelivery)
  get(req: RpcParsedRequest<typeof S.getDelivery>) {
    return this.deliveries.get(req.actor, req.id, req.deliveryId);
  }

  @RpcHandler(S.redeliver)
  redeliver(req: RpcParsedRequest<typeof S.redeliver>) {
    return this.deliveries.redeliver(req.actor, req.id, req.deliveryId);
  }
}
