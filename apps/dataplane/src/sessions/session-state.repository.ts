import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import { Prisma, type PrismaClient, type Session, type SessionStatus } from '@agentry/db';

export interface Lease {
  sessionId: string;
  tenantId: string;
  token: bigint;
}

type Tx = Prisma.TransactionClient;

/** Run-time state of a session row: the turn lease (with fencing token) and status compare-and-set. */
@Injectable()
export class SessionStateRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  find(sessionId: string): Promise<Session | null> {
    return this.db.session.findUnique({ where: { id: sessionId } });
  }

  findForTenant(sessionId: string, tenantId: string, namespaceId: string): Promise<Session | null> {
    return this.db.session.findFirst({ where: { id: sessionId, tenantId, namespaceId } });
  }

  /** Takes the lease if it is free or expired; each acquisition gets a larger fencing token. */
  async acquire(sessionId: string, owner: string, ttlMs: number): Promise<Lease | null> {
    const rows = await this.db.$queryRaw<Array<{ lease_token: bigint; tenant_id: string }>>`
      UPDATE sessions
      SET lease_owner = ${owner}, lease_token = lease_token + 1,
          lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000})
      WHERE id = ${sessionId} AND archived_at IS NULL
        AND (lease_expires_at IS NULL OR lease_expires_at < now())
      RETURNING lease_token, tenant_id`;
    const row = rows[0];
    return row ? { sessionId, tenantId: row.tenant_id, token: row.lease_token } : null;
  }

  async renew(lease: Lease, ttlMs: number): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE sessions SET lease_expires_at = now() + make_interval(secs => ${ttlMs / 1000})
      WHERE id = ${lease.sessionId} AND lease_token = ${lease.token}`;
    return count === 1;
  }

  async release(lease: Lease): Promise<void> {
    await this.db.$executeRaw`
      UPDATE sessions SET lease_expires_at = NULL, lease_owner = NULL
      WHERE id = ${lease.sessionId} AND lease_token = ${lease.token}`;
  }

  /**
   * Compare-and-set of the status, conditional on the lease token: a stale turn runner, or a status
   * that moved meanwhile, changes nothing and reports false.
   */
  async transition(
    tx: Tx,
    lease: Lease,
    from: SessionStatus[],
    to: SessionStatus,
    stopReason: Record<string, unknown> | null,
  ): Promise<boolean> {
    const count = await tx.$executeRaw`
      UPDATE sessions SET status = ${to}::session_status, stop_reason = ${stopReason === null ? null : JSON.stringify(stopReason)}::jsonb,
        updated_at = now()
      WHERE id = ${lease.sessionId} AND lease_token = ${lease.token}
        AND status = ANY(${from}::session_status[])`;
    return count === 1;
  }

  async addUsage(tx: Tx, lease: Lease, usage: Record<string, number>): Promise<void> {
    const session = await tx.session.findUnique({ where: { id: lease.sessionId }, select: { usage: true } });
    const current = (session?.usage ?? {}) as Record<string, number>;
    const next: Record<string, number> = { ...current };
    for (const [key, value] of Object.entries(usage)) next[key] = (next[key] ?? 0) + value;
    await tx.session.updateMany({ where: { id: lease.sessionId, leaseToken: lease.token }, data: { usage: next } });
  }
}
