import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { AuditLogService } from './audit-log.service.js';

@Controller()
export class AuditHandler {
  constructor(private readonly audit: AuditLogService) {}

  @RpcHandler(S.listAuditLog)
  list(req: RpcParsedRequest<typeof S.listAuditLog>) {
    return this.audit.list(req.actor, req.query);
  }
}
