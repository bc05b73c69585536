import { Controller } from '@nestjs/common';
import { AuditListQuerySchema, ControlSubjects as A } from '@agentry/contracts';
import { AdminListController } from './admin-list.controller.js';

/** `GET /api/admin/audit-log`: who changed access, newest first. */
@Controller('api/admin/audit-log')
export class AuditLogController extends AdminListController(A.listAuditLog, AuditListQuerySchema) {}
