import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSqlPool } from '@agentry/db';
import type pg from 'pg';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';

/**
 * Which connections a statement goes through. `pickup` is a turn's start and hand-over: the lease with the
 * inbox, the prelude and the running status written with the first model call, the release and the look
 * at the inbox after it. It has connections of its
 * own, more than it keeps busy, while the `turn` pool carrying everything else is kept small enough not to
 * oversubscribe Postgres; so committed input starts its turn promptly however many turns are running
 * (docs/performance.md, "Pickup under load").
 */
export type SqlLane = 'turn' | 'pickup';

/**
 * The dataplane's hot path speaks SQL through `pg` directly: each turn runs a handful of fixed
 * statements, prepared once per connection, where the ORM would compile every call again
 * (docs/performance.md). One pool serves the event log, the session state and the shared workspace;
 * a second one serves the pickup lane.
 */
@Injectable()
export class SqlPool implements OnApplicationShutdown {
  readonly pool: pg.Pool;
  private readonly pickup: pg.Pool;

  constructor(
    @Inject(DATAPLANE_CONFIG)
    config: Pick<DataplaneEnv, 'DATABASE_URL' | 'AGENTRY_SQL_POOL_SIZE' | 'AGENTRY_SQL_PICKUP_POOL_SIZE'>,
  ) {
    this.pool = createSqlPool(config.DATABASE_URL, config.AGENTRY_SQL_POOL_SIZE);
    this.pickup = createSqlPool(config.DATABASE_URL, config.AGENTRY_SQL_PICKUP_POOL_SIZE);
  }

  query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
    lane: SqlLane = 'turn',
  ): Promise<pg.QueryResult<R>> {
    return this.poolOf(lane).query<R>({ name, text, values });
  }

  /** The connections of `lane`, for a reader that takes a pool (a turn's prelude reads through `pickup`). */
  poolOf(lane: SqlLane): pg.Pool {
    return lane === 'pickup' ? this.pickup : this.pool;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pool.end(), this.pickup.end()]);
  }
}
