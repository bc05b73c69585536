import { Global, Module } from '@nestjs/common';
import { AuditHandler } from './audit.handler.js';
import { AuditLogRepository } from './audit-log.repository.js';
import { AuditLogService } from './audit-log.service.js';

/** Global so any control service can record its mutations without importing this module. */
@Global()
@Module({
  controllers: [AuditHandler],
  providers: [AuditLogService, AuditLogRepository],
  exports: [AuditLogService],
})
export class AuditModule {}
