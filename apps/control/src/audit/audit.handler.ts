import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlAccessSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { AuditLogService } from './audit-log.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class AuditHandler {
  constructor(private readonly audit: AuditLogService) {}

  @RpcHandler(S.listAuditLog)
  list(@RpcBody(S.listAuditLog) req: RpcParsedRequest<typeof S.listAuditLog>) {
    return this.audit.list(req.actor, req.query);
  }
}
