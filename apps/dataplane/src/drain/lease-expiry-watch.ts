import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { SessionWakeups } from './session-wakeups.js';

/** Sessions one look starts at most; the rest wait for the next look. */
const BATCH = 200;

/**
 * A crashed holder's turn is taken over soon after its lease expires (DESIGN.md §6.8): every replica
 * looks for expired leases every `AGENTRY_TAKEOVER_SCAN_MS` and starts a drain for each. A lease a holder
 * released has no owner, so only a holder that stopped renewing is found; the lease statement decides
 * which replica takes the session. One indexed statement per replica and interval replaces a delayed
 * job armed and disarmed in Redis around every turn.
 */
@Injectable()
export class LeaseExpiryWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private looking = false;

  constructor(
    private readonly state: SessionStateRepository,
    private readonly wakeups: SessionWakeups,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.look(), this.config.AGENTRY_TAKEOVER_SCAN_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Starts a drain for every session whose lease expired under its holder; returns how many. */
  async look(): Promise<number> {
    if (this.looking) return 0;
    this.looking = true;
    try {
      const expired = await this.state.expiredLeases(BATCH);
      for (const { sessionId, tenantId } of expired) await this.wakeups.kick(sessionId, tenantId, 'takeover');
      return expired.length;
    } catch (error) {
      this.logger.warn(
        { err: (error as Error).message },
        'could not look for expired leases; next look retries',
      );
      return 0;
    } finally {
      this.looking = false;
    }
  }
}
