import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { MemoryVersion, Prisma, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export interface VersionFilter {
  memoryId?: string;
  operation?: string;
  sessionId?: string;
  apiKeyId?: string;
  afterId?: string;
  order: 'asc' | 'desc';
  limit: number;
}

@Injectable()
export class MemoryVersionsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  find(actor: Actor, storeId: string, id: string): Promise<MemoryVersion | null> {
    return this.db.memoryVersion.findFirst({
      where: { id, memoryStoreId: storeId, tenantId: actor.tenantId },
    });
  }

  list(actor: Actor, storeId: string, filter: VersionFilter): Promise<MemoryVersion[]> {
    const createdBy: Prisma.JsonFilter<'MemoryVersion'>[] = [];
    if (filter.sessionId) createdBy.push({ path: ['session_id'], equals: filter.sessionId });
    if (filter.apiKeyId) createdBy.push({ path: ['api_key_id'], equals: filter.apiKeyId });
    return this.db.memoryVersion.findMany({
      where: {
        memoryStoreId: storeId,
        tenantId: actor.tenantId,
        ...(filter.memoryId ? { memoryId: filter.memoryId } : {}),
        ...(filter.operation ? { operation: filter.operation } : {}),
        ...(createdBy.length ? { AND: createdBy.map((f) => ({ createdBy: f })) } : {}),
        ...(filter.afterId
          ? { id: filter.order === 'asc' ? { gt: filter.afterId } : { lt: filter.afterId } }
          : {}),
      },
      orderBy: { id: filter.order },
      take: filter.limit,
    });
  }

  /**
   * Removes the content of every version of one memory, and of the memory itself, so the text is gone
   * wherever it was stored; the versions remain, marked redacted.
   */
  async redactMemory(actor: Actor, memoryId: string, emptySha256: string): Promise<void> {
    const now = this.clock.now();
    await this.db.$transaction([
      this.db.memoryVersion.updateMany({
        where: { memoryId, tenantId: actor.tenantId },
        data: { content: null, redactedAt: now },
      }),
      this.db.memory.update({
        where: { id: memoryId, tenantId: actor.tenantId },
        data: { content: '', contentSha256: emptySha256, sizeBytes: 0 },
      }),
    ]);
  }
}
