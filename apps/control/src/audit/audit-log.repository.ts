import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { AuditLog, Prisma, ServiceDatabase } from '@agentry/db';

@Injectable()
export class AuditLogRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  async insert(data: Prisma.AuditLogUncheckedCreateInput): Promise<void> {
    await this.db.auditLog.create({ data });
  }

  /** Newest first; ids are time-sortable, so the cursor is the last id seen. */
  list(
    tenantId: string,
    options: { limit: number; beforeId?: string; resourceType?: string; resourceId?: string },
  ): Promise<AuditLog[]> {
    return this.db.auditLog.findMany({
      where: {
        tenantId,
        ...(options.resourceType ? { resourceType: options.resourceType } : {}),
        ...(options.resourceId ? { resourceId: options.resourceId } : {}),
        ...(options.beforeId ? { id: { lt: options.beforeId } } : {}),
      },
      orderBy: { id: 'desc' },
      take: options.limit,
    });
  }
}
