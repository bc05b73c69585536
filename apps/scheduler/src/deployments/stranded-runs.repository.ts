import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';
import type { DeploymentInitialEvent } from '@agentry/contracts';

/** A run left `pending` or `running` by a scheduler that stopped in the middle of it. */
export interface StrandedRun {
  id: string;
  trigger: string;
  status: 'pending' | 'running';
  sessionId: string | null;
  tenantId: string;
  namespaceId: string;
  initialEvents: DeploymentInitialEvent[];
  /** Whether anything reached the session's log (the initial events did, or a user wrote since). */
  hasEvents: boolean;
}

/** Reads control's run records and the session logs; writes nothing (control finishes runs). */
@Injectable()
export class StrandedRunsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>) {}

  /** Runs started before `startedBefore` and still not finished, oldest first. */
  find(startedBefore: Date, limit: number): Promise<StrandedRun[]> {
    return this.db.$queryRaw<StrandedRun[]>`
      SELECT r.id, r.trigger, r.status, r.session_id AS "sessionId", d.tenant_id AS "tenantId",
        d.namespace_id AS "namespaceId", d.initial_events AS "initialEvents",
        EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = r.session_id) AS "hasEvents"
      FROM deployment_runs r JOIN deployments d ON d.id = r.deployment_id
      WHERE r.status IN ('pending', 'running') AND r.started_at < ${startedBefore}
      ORDER BY r.started_at
      LIMIT ${limit}`;
  }
}
