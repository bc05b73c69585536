import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ApiKey, PrismaClient } from '@agentry/db';

@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  findByHash(keyHash: string): Promise<ApiKey | null> {
    return this.db.apiKey.findUnique({ where: { keyHash } });
  }

  async touch(id: string): Promise<void> {
    await this.db.apiKey.update({ where: { id }, data: { lastUsedAt: new Date() } });
  }
}
