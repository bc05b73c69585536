import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { VaultCredential, ServiceDatabase } from '@agentry/db';

/** Reads for run-time use of a session's vaults; the session id and tenant together scope every query. */
@Injectable()
export class SessionCredentialsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  /** The session's `vault_ids` in the order given at creation; null when the session does not exist. */
  async vaultIdsOf(tenantId: string, sessionId: string): Promise<string[] | null> {
    // By primary key, the tenant checked on the row (see `SessionsRepository.find`).
    const row = await this.db.session.findUnique({
      where: { id: sessionId },
      select: { vaultIds: true, tenantId: true },
    });
    return row?.tenantId === tenantId ? row.vaultIds : null;
  }

  /** Live credentials of the given types in live vaults, newest change first. */
  activeCredentials(tenantId: string, vaultIds: string[], types: string[]): Promise<VaultCredential[]> {
    return this.db.vaultCredential.findMany({
      where: {
        tenantId,
        vaultId: { in: vaultIds },
        type: { in: types },
        archivedAt: null,
        vault: { archivedAt: null },
      },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    });
  }
}
