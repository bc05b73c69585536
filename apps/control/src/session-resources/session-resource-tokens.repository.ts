import { Inject, Injectable } from '@nestjs/common';
import type { ServiceDatabase } from '@agentry/db';
import { DATABASE } from '@agentry/platform';
import { SecretCipher } from '../vaults/secret-cipher.js';

/** Repository tokens, sealed with the vault cipher (bound to the resource id); plaintext never reaches a row. */
@Injectable()
export class SessionResourceTokensRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly cipher: SecretCipher,
  ) {}

  async put(tenantId: string, sessionId: string, resourceId: string, token: string): Promise<void> {
    const sealed = this.cipher.seal(token, resourceId);
    await this.db.sessionResourceToken.upsert({
      where: { resourceId },
      create: { resourceId, sessionId, tenantId, ...sealed },
      update: sealed,
    });
  }

  async remove(resourceId: string): Promise<void> {
    await this.db.sessionResourceToken.deleteMany({ where: { resourceId } });
  }

  /** The session's tokens by resource id, opened; only for the run-time read that mounts them. */
  async openAll(tenantId: string, sessionId: string): Promise<Map<string, string>> {
    const rows = await this.db.sessionResourceToken.findMany({ where: { tenantId, sessionId } });
    return new Map(rows.map((row) => [row.resourceId, this.cipher.open(row, row.resourceId)]));
  }
}
