import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { Environment, EnvironmentKey, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export type EnvironmentKeyWithEnvironment = EnvironmentKey & { environment: Environment };

export interface NewEnvironmentKey {
  id: string;
  environmentId: string;
  prefix: string;
  keyHash: string;
}

/** Environment keys are stored as SHA-256 hashes; `prefix` keeps a displayable stub. */
@Injectable()
export class EnvironmentKeysRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Inserts a key; with `revokeExisting` the previous live keys are revoked in the same transaction. */
  create(actor: Actor, data: NewEnvironmentKey, revokeExisting: boolean): Promise<EnvironmentKey> {
    return this.db.$transaction(async (tx) => {
      if (revokeExisting) {
        await tx.environmentKey.updateMany({
          where: { environmentId: data.environmentId, tenantId: actor.tenantId, revokedAt: null },
          data: { revokedAt: this.clock.now() },
        });
      }
      return tx.environmentKey.create({ data: { ...data, tenantId: actor.tenantId } });
    });
  }

  list(actor: Actor, environmentId: string): Promise<EnvironmentKey[]> {
    return this.db.environmentKey.findMany({
      where: { environmentId, tenantId: actor.tenantId },
      orderBy: { id: 'desc' },
    });
  }

  /** A key by the hash of its secret, with the environment it opens; any tenant (the key says which). */
  findByHash(keyHash: string): Promise<EnvironmentKeyWithEnvironment | null> {
    return this.db.environmentKey.findUnique({ where: { keyHash }, include: { environment: true } });
  }

  async touch(id: string): Promise<void> {
    await this.db.environmentKey.update({ where: { id }, data: { lastUsedAt: this.clock.now() } });
  }

  async revoke(actor: Actor, environmentId: string, keyId: string): Promise<EnvironmentKey | null> {
    await this.db.environmentKey.updateMany({
      where: { id: keyId, environmentId, tenantId: actor.tenantId, revokedAt: null },
      data: { revokedAt: this.clock.now() },
    });
    return this.db.environmentKey.findFirst({
      where: { id: keyId, environmentId, tenantId: actor.tenantId },
    });
  }
}
