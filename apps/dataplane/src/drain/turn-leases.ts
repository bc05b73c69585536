import { Inject, Injectable } from '@nestjs/common';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { SessionStateRepository, type Acquired, type Lease } from '../sessions/session-state.repository.js';
import { LeaseKeeper } from './lease-keeper.js';
import { ReplicaLiveness } from './replica-liveness.js';

/**
 * This replica's turn leases: taken in its name (so they can be taken over as soon as it stops beating),
 * for the configured TTL, kept renewed while a turn runs, and let go.
 */
@Injectable()
export class TurnLeases {
  constructor(
    private readonly state: SessionStateRepository,
    private readonly liveness: ReplicaLiveness,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  /** The lease if it is free, expired or its holder's replica is dead; `role` names who else holds it. */
  acquire(
    sessionId: string,
    log: { from: number | null; start: string } | null,
    role?: string,
  ): Promise<Acquired | null> {
    return this.state.acquire(sessionId, this.liveness.ownerFor(role), this.config.AGENTRY_LEASE_TTL_MS, log);
  }

  /** Renews the lease while a turn runs; its `lost` signal fires if a renewal finds it taken. */
  keep(lease: Lease): LeaseKeeper {
    return new LeaseKeeper(this.state, lease, this.config.AGENTRY_LEASE_TTL_MS);
  }

  release(lease: Lease): Promise<void> {
    return this.state.release(lease);
  }
}
