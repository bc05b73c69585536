import type { Lease, SessionStateRepository } from '../sessions/session-state.repository.js';

/**
 * Renews a turn lease at a third of its TTL. If a renewal fails (the lease expired and someone else
 * took it) the turn is aborted: its writes would be refused by the fencing token anyway.
 */
export class LeaseKeeper {
  private readonly timer: NodeJS.Timeout;
  readonly lost = new AbortController();

  constructor(
    private readonly state: SessionStateRepository,
    private readonly lease: Lease,
    ttlMs: number,
  ) {
    this.timer = setInterval(() => void this.renew(ttlMs), Math.max(200, Math.floor(ttlMs / 3)));
  }

  private async renew(ttlMs: number): Promise<void> {
    const ok = await this.state.renew(this.lease, ttlMs).catch(() => false);
    if (!ok) this.lost.abort(new Error('turn lease lost'));
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
