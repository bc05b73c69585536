import type { Work } from '@agentry/contracts';
import type { WorkItem } from '@agentry/db';

/** A work item in its CMA wire shape; `secret` is set only by the poll that hands the item out. */
export function toWork(row: WorkItem, secret: string | null = null): Work {
  return {
    type: 'work',
    id: row.id,
    environment_id: row.environmentId,
    state: row.state,
    data: { type: 'session', id: row.sessionId },
    secret,
    metadata: row.metadata as Record<string, string>,
    created_at: row.createdAt.toISOString(),
    acknowledged_at: row.ackedAt?.toISOString() ?? null,
    started_at: row.startedAt?.toISOString() ?? null,
    latest_heartbeat_at: row.lastHeartbeat,
    stop_requested_at: row.stopRequestedAt?.toISOString() ?? null,
    stopped_at: row.stoppedAt?.toISOString() ?? null,
  };
}
