import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import { Prisma, type ServiceDatabase } from '@agentry/db';

export interface ScheduledDeployment {
  id: string;
  tenantId: string;
  namespaceId: string;
  expression: string;
  timezone: string;
}

const ACTIVE_SCHEDULED = { archivedAt: null, pausedAt: null, schedule: { not: Prisma.DbNull } } as const;
const FIELDS = { id: true, tenantId: true, namespaceId: true, schedule: true } as const;

/** The deployments table as the cron side reads it: only what decides whether and when a deployment fires. */
@Injectable()
export class ScheduledDeploymentsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>) {}

  async listActive(): Promise<ScheduledDeployment[]> {
    const rows = await this.db.deployment.findMany({
      where: ACTIVE_SCHEDULED,
      select: FIELDS,
      orderBy: { id: 'asc' },
    });
    return rows.map(toScheduled);
  }

  /** The deployment if it should be firing now, else null (paused, archived, unscheduled or gone). */
  async findActive(id: string): Promise<ScheduledDeployment | null> {
    const row = await this.db.deployment.findFirst({ where: { id, ...ACTIVE_SCHEDULED }, select: FIELDS });
    return row ? toScheduled(row) : null;
  }
}

function toScheduled(row: {
  id: string;
  tenantId: string;
  namespaceId: string;
  schedule: Prisma.JsonValue;
}): ScheduledDeployment {
  const schedule = row.schedule as { expression: string; timezone: string };
  return {
    id: row.id,
    tenantId: row.tenantId,
    namespaceId: row.namespaceId,
    expression: schedule.expression,
    timezone: schedule.timezone,
  };
}
