import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import { Prisma, type WorkItem, type ServiceDatabase } from '@agentry/db';
import type { WorkState } from '@agentry/contracts';

/** Every query is confined to one tenant's environment. */
export interface EnvScope {
  tenantId: string;
  environmentId: string;
}

/** Raw statements return the Prisma model's shape, so callers see one row type. */
const COLUMNS =
  Prisma.raw(`id, tenant_id AS "tenantId", environment_id AS "environmentId", session_id AS "sessionId",
  state::text AS state, worker_id AS "workerId", secret_hash AS "secretHash", last_heartbeat AS "lastHeartbeat",
  heartbeat_expires_at AS "heartbeatExpiresAt", acked_at AS "ackedAt", stop_requested_at AS "stopRequestedAt",
  stopped_at AS "stoppedAt", created_at AS "createdAt", updated_at AS "updatedAt", metadata, started_at AS "startedAt",
  ttl_seconds AS "ttlSeconds", work_dir AS "workDir"`);

const inScope = (s: EnvScope, id: string) =>
  Prisma.sql`id = ${id} AND tenant_id = ${s.tenantId} AND environment_id = ${s.environmentId}`;

/** Work items of self-hosted environments: the queue, the lease compare-and-sets, the sessions-token lookup. */
@Injectable()
export class WorkItemsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>) {}

  /**
   * Claims the oldest claimable item in one statement (`FOR UPDATE SKIP LOCKED`, so concurrent pollers
   * never take the same one): queued, or leased with the lease expired, or claimed and unacknowledged
   * for longer than `reclaimUnackedMs`. The claim stores a new sessions-token hash and starts a lease.
   */
  async claim(
    scope: EnvScope,
    claim: { workerId: string; secretHash: string; ttlSeconds: number; reclaimUnackedMs: number },
  ): Promise<WorkItem | null> {
    const rows = await this.db.$queryRaw<WorkItem[]>`
      UPDATE work_items SET state = 'starting', worker_id = ${claim.workerId}, secret_hash = ${claim.secretHash},
        started_at = now(), acked_at = NULL, last_heartbeat = NULL, ttl_seconds = ${claim.ttlSeconds}::int,
        heartbeat_expires_at = now() + make_interval(secs => ${claim.ttlSeconds}::int), updated_at = now()
      WHERE id = (
        SELECT id FROM work_items
        WHERE tenant_id = ${scope.tenantId} AND environment_id = ${scope.environmentId}
          AND (state = 'queued'
            OR (state IN ('starting', 'active') AND heartbeat_expires_at < now())
            OR (state = 'starting' AND started_at < now() - make_interval(secs => ${claim.reclaimUnackedMs / 1000}::double precision)))
        ORDER BY created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`;
    return rows[0] ?? null;
  }

  find(scope: EnvScope, id: string): Promise<WorkItem | null> {
    return this.db.workItem.findFirst({
      where: { id, tenantId: scope.tenantId, environmentId: scope.environmentId },
    });
  }

  /** starting → active (again, harmlessly, for an active item); null when the item is in no ackable state. */
  async ack(
    scope: EnvScope,
    id: string,
    worker: { workerId?: string | undefined; workDir?: string | undefined },
  ): Promise<WorkItem | null> {
    const rows = await this.db.$queryRaw<WorkItem[]>`
      UPDATE work_items SET state = 'active', acked_at = COALESCE(acked_at, now()),
        worker_id = COALESCE(${worker.workerId ?? null}::text, worker_id), work_dir = COALESCE(${worker.workDir ?? null}::text, work_dir),
        updated_at = now()
      WHERE ${inScope(scope, id)} AND state IN ('starting', 'active')
      RETURNING ${COLUMNS}`;
    return rows[0] ?? null;
  }

  /**
   * Records a heartbeat if `last_heartbeat` still equals `expected` (null = none yet; `compare: false`
   * skips the check), or unconditionally while the item is stopping. The new value is a millisecond
   * RFC 3339 timestamp that always moves forward, so no two heartbeats share a value.
   */
  async heartbeat(
    scope: EnvScope,
    id: string,
    beat: { compare: boolean; expected: string | null; ttlSeconds?: number | undefined },
  ): Promise<WorkItem | null> {
    const ttl = beat.ttlSeconds ?? null;
    const rows = await this.db.$queryRaw<WorkItem[]>`
      UPDATE work_items SET
        last_heartbeat = to_char(GREATEST(now(), COALESCE(last_heartbeat::timestamptz + interval '1 millisecond', now())) AT TIME ZONE 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        ttl_seconds = COALESCE(${ttl}::int, ttl_seconds),
        heartbeat_expires_at = now() + make_interval(secs => COALESCE(${ttl}::int, ttl_seconds)),
        state = CASE WHEN state = 'starting' THEN 'active'::work_item_state ELSE state END,
        updated_at = now()
      WHERE ${inScope(scope, id)}
        AND ((state IN ('starting', 'active') AND (NOT ${beat.compare}::boolean OR last_heartbeat IS NOT DISTINCT FROM ${beat.expected}::text))
          OR state = 'stopping')
      RETURNING ${COLUMNS}`;
    return rows[0] ?? null;
  }

  /** Stops at once when forced (or nobody holds the item), else asks the holder to stop; null if already stopped or absent. */
  async stop(scope: EnvScope, id: string, force: boolean): Promise<WorkItem | null> {
    const rows = await this.db.$queryRaw<WorkItem[]>`
      UPDATE work_items SET
        state = CASE WHEN ${force}::boolean OR state = 'queued' THEN 'stopped'::work_item_state ELSE 'stopping'::work_item_state END,
        stop_requested_at = COALESCE(stop_requested_at, now()),
        stopped_at = CASE WHEN ${force}::boolean OR state = 'queued' THEN now() ELSE NULL END,
        heartbeat_expires_at = CASE WHEN ${force}::boolean OR state = 'queued' THEN NULL ELSE heartbeat_expires_at END,
        updated_at = now()
      WHERE ${inScope(scope, id)} AND state <> 'stopped'
      RETURNING ${COLUMNS}`;
    return rows[0] ?? null;
  }

  setMetadata(id: string, metadata: Record<string, string>): Promise<WorkItem> {
    return this.db.workItem.update({ where: { id }, data: { metadata } });
  }

  /** Newest first; `onlyId` narrows to one item (a sessions-token caller sees only its own). */
  list(
    scope: EnvScope,
    query: {
      state?: WorkState | undefined;
      limit: number;
      beforeId?: string | undefined;
      onlyId?: string | undefined;
    },
  ): Promise<WorkItem[]> {
    return this.db.workItem.findMany({
      where: {
        tenantId: scope.tenantId,
        environmentId: scope.environmentId,
        ...(query.state ? { state: query.state } : {}),
        AND: [query.beforeId ? { id: { lt: query.beforeId } } : {}, query.onlyId ? { id: query.onlyId } : {}],
      },
      orderBy: { id: 'desc' },
      take: query.limit,
    });
  }

  async stats(scope: EnvScope): Promise<{ queued: number; starting: number; oldest: Date | null }> {
    const rows = await this.db.$queryRaw<Array<{ queued: number; starting: number; oldest: Date | null }>>`
      SELECT count(*) FILTER (WHERE state = 'queued')::int AS queued, count(*) FILTER (WHERE state = 'starting')::int AS starting,
        min(created_at) FILTER (WHERE state IN ('queued', 'starting')) AS oldest
      FROM work_items WHERE tenant_id = ${scope.tenantId} AND environment_id = ${scope.environmentId}`;
    return rows[0] ?? { queued: 0, starting: 0, oldest: null };
  }

  /** The open item a sessions token was minted for, with its session's namespace. */
  async findOpenBySecretHash(
    hash: string,
  ): Promise<
    (Pick<WorkItem, 'id' | 'tenantId' | 'environmentId' | 'sessionId'> & { namespaceId: string }) | null
  > {
    const rows = await this.db.$queryRaw<
      Array<{ id: string; tenantId: string; environmentId: string; sessionId: string; namespaceId: string }>
    >`
      SELECT w.id, w.tenant_id AS "tenantId", w.environment_id AS "environmentId", w.session_id AS "sessionId", s.namespace_id AS "namespaceId"
      FROM work_items w JOIN sessions s ON s.id = w.session_id
      WHERE w.secret_hash = ${hash} AND w.state <> 'stopped'`;
    return rows[0] ?? null;
  }

  /** Queues an item for the session unless one is open (the partial unique index decides); null if one was. */
  async queueForSession(item: {
    id: string;
    tenantId: string;
    environmentId: string;
    sessionId: string;
    ttlSeconds: number;
  }): Promise<string | null> {
    const rows = await this.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO work_items (id, tenant_id, environment_id, session_id, state, ttl_seconds)
      VALUES (${item.id}, ${item.tenantId}, ${item.environmentId}, ${item.sessionId}, 'queued', ${item.ttlSeconds}::int)
      ON CONFLICT (session_id) WHERE state IN ('queued', 'starting', 'active') DO NOTHING
      RETURNING id`;
    return rows[0]?.id ?? null;
  }

  async environmentInNamespace(
    tenantId: string,
    namespaceId: string,
    environmentId: string,
  ): Promise<boolean> {
    return (await this.db.environment.count({ where: { id: environmentId, tenantId, namespaceId } })) === 1;
  }

  /** Items of a namespace waiting for a worker (queued, or claimed and not yet acknowledged). */
  async waitingInNamespace(tenantId: string, namespaceId: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ count: number }>>`
      SELECT count(*)::int AS count FROM work_items w JOIN sessions s ON s.id = w.session_id
      WHERE w.tenant_id = ${tenantId} AND s.namespace_id = ${namespaceId} AND w.state IN ('queued', 'starting')`;
    return rows[0]?.count ?? 0;
  }
}
