import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { ApiKey, Prisma, ServiceDatabase } from '@agentry/db';

@Injectable()
export class ApiKeysRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  findByHash(keyHash: string): Promise<ApiKey | null> {
    return this.db.apiKey.findUnique({ where: { keyHash } });
  }

  async touch(id: string): Promise<void> {
    await this.db.apiKey.update({ where: { id }, data: { lastUsedAt: this.clock.now() } });
  }

  create(data: Prisma.ApiKeyUncheckedCreateInput): Promise<ApiKey> {
    return this.db.apiKey.create({ data });
  }

  findInTenant(tenantId: string, id: string): Promise<ApiKey | null> {
    return this.db.apiKey.findFirst({ where: { id, tenantId } });
  }

  /** Keys of the tenant, optionally only one user's, oldest first. */
  list(tenantId: string, options: { userId?: string; limit: number; afterId?: string }): Promise<ApiKey[]> {
    return this.db.apiKey.findMany({
      where: {
        tenantId,
        ...(options.userId ? { userId: options.userId } : {}),
        ...(options.afterId ? { id: { gt: options.afterId } } : {}),
      },
      orderBy: { id: 'asc' },
      take: options.limit,
    });
  }

  revoke(tenantId: string, id: string): Promise<ApiKey> {
    return this.db.apiKey.update({ where: { id, tenantId }, data: { revokedAt: this.clock.now() } });
  }
}
