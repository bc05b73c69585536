import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSqlPool } from '@agentry/db';
import type pg from 'pg';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';

/**
 * The dataplane's hot path speaks SQL through `pg` directly: each turn runs a handful of fixed
 * statements, prepared once per connection, where the ORM would compile every call again
 * (docs/performance.md). One pool serves the event log, the session state and the shared workspace.
 */
@Injectable()
export class SqlPool implements OnApplicationShutdown {
  readonly pool: pg.Pool;

  constructor(
    @Inject(DATAPLANE_CONFIG) config: Pick<DataplaneEnv, 'DATABASE_URL' | 'AGENTRY_SQL_POOL_SIZE'>,
  ) {
    this.pool = createSqlPool(config.DATABASE_URL, config.AGENTRY_SQL_POOL_SIZE);
  }

  query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>({ name, text, values });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
