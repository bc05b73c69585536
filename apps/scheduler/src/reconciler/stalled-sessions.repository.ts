import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

export interface StalledSession {
  id: string;
  tenantId: string;
  /** Fencing token: it grows by one on every lease acquisition, so by one per turn attempt. */
  leaseToken: bigint;
  /** Seq of the latest input (`user.*` event): what the session's turn is trying to answer. */
  inputSeq: bigint;
}

@Injectable()
export class StalledSessionsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>) {}

  /**
   * Sessions that need a turn and have no live lease: unprocessed inbound events (a lost kick), or a
   * turn left `running` (or `rescheduling`, while being moved) by a runner that died.
   */
  async find(limit: number): Promise<StalledSession[]> {
    const rows = await this.db.$queryRaw<
      Array<{ id: string; tenant_id: string; lease_token: bigint; input_seq: bigint }>
    >`
      SELECT s.id, s.tenant_id, s.lease_token,
        (SELECT coalesce(max(e.seq), 0) FROM session_events e WHERE e.session_id = s.id AND e.type LIKE 'user.%') AS input_seq
      FROM sessions s
      WHERE s.archived_at IS NULL
        AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
        AND (s.status IN ('running', 'rescheduling') OR EXISTS (
          SELECT 1 FROM session_events e WHERE e.session_id = s.id AND e.processed_at IS NULL))
      ORDER BY s.updated_at
      LIMIT ${limit}`;
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      leaseToken: BigInt(r.lease_token),
      inputSeq: BigInt(r.input_seq),
    }));
  }
}
