import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { PrismaClient } from '@agentry/db';

@Injectable()
export class StalledSessionsRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  /**
   * Sessions that need a turn and have no live lease: unprocessed inbound events (a lost kick), or a
   * turn left `running` by a runner that died.
   */
  async find(limit: number): Promise<Array<{ id: string; tenantId: string }>> {
    const rows = await this.db.$queryRaw<Array<{ id: string; tenant_id: string }>>`
      SELECT s.id, s.tenant_id FROM sessions s
      WHERE s.archived_at IS NULL
        AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
        AND (s.status = 'running' OR EXISTS (
          SELECT 1 FROM session_events e WHERE e.session_id = s.id AND e.processed_at IS NULL))
      ORDER BY s.updated_at
      LIMIT ${limit}`;
    return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id }));
  }
}
