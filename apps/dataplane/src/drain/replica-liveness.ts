import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LOGGER, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { SqlPool } from '../sql/sql-pool.js';

/** Rows of replicas dead this long are deleted: every lease they held has expired by then. */
const FORGET_AFTER = '1 hour';

/**
 * This replica's identity and its liveness row. Every lease owner this replica writes starts with its id
 * (`replica` or `replica/role`); the row is renewed every `AGENTRY_REPLICA_BEAT_MS` to last
 * `AGENTRY_REPLICA_ALIVE_MS`, and marked dead on shutdown. Once it lapses, other replicas take this one's
 * turn leases over without waiting for them to expire (DESIGN.md §6.8): a kill -9 costs the alive window,
 * not the lease TTL. A replica that was only paused finds its lease's fencing token moved on.
 */
@Injectable()
export class ReplicaLiveness implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly replica = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  /** The renewal in flight, if any: one at a time, and shutdown waits for it so it cannot revive the row. */
  private beating: Promise<void> | null = null;
  private beats = 0;

  constructor(
    private readonly sql: SqlPool,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The lease owner for one of this replica's roles (the drain is the replica itself). */
  ownerFor(role?: string): string {
    return role ? `${this.replica}/${role}` : this.replica;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.config.AGENTRY_REPLICA_BEAT_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.sql
      .query('replicas.dead', 'UPDATE dataplane_replicas SET alive_until = now() WHERE replica = $1', [
        this.replica,
      ])
      .catch(() => undefined);
  }

  private beat(): Promise<void> {
    this.beating ??= this.renew().finally(() => (this.beating = null));
    return this.beating;
  }

  private async renew(): Promise<void> {
    try {
      await this.sql.query(
        'replicas.beat',
        `INSERT INTO dataplane_replicas (replica, alive_until) VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (replica) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
        [this.replica, this.config.AGENTRY_REPLICA_ALIVE_MS / 1000],
        'pickup',
      );
      this.beats += 1;
      if (this.beats % 1000 === 1) await this.forgetDead();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'could not renew this replica’s liveness');
    }
  }

  private async forgetDead(): Promise<void> {
    await this.sql.query(
      'replicas.forget',
      `DELETE FROM dataplane_replicas WHERE alive_until < now() - interval '${FORGET_AFTER}'`,
      [],
    );
  }
}
