import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSqlPool } from '@agentry/db';
import { LOGGER, type Logger } from '@agentry/platform';
import type pg from 'pg';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';

/**
 * Control's hottest reads (GET by id) as `pg` prepared statements: the ORM compiles every call again,
 * which costs more than the query itself (docs/performance.md). Writes and everything else stay with it.
 */
@Injectable()
export class ControlSql implements OnApplicationShutdown {
  private readonly pool: pg.Pool;

  constructor(@Inject(CONTROL_CONFIG) config: ControlEnv, @Inject(LOGGER) logger: Logger) {
    this.pool = createSqlPool(config.DATABASE_URL, {
      maxConnections: config.AGENTRY_SQL_POOL_SIZE,
      onIdleError: (error) =>
        logger.warn({ err: error.message }, 'idle SQL connection failed; it is replaced on next use'),
    });
  }

  async rows<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ name, text, values })).rows;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
