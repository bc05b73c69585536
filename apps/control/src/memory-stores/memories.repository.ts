import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { Memory, MemoryVersion, Prisma, ServiceDatabase } from '@agentry/db';
import type { Actor, MemoryActor } from '@agentry/contracts';

export interface MemoryWrite {
  path: string;
  content: string;
  contentSha256: string;
  sizeBytes: number;
  versionId: string;
  operation: 'created' | 'modified' | 'deleted';
  createdBy: MemoryActor;
}

export type MemoryWithHead = { memory: Memory; head: MemoryVersion };

/** Memories of one store (already found in the actor's namespace); every write appends a version. */
@Injectable()
export class MemoriesRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(actor: Actor, storeId: string, id: string, write: MemoryWrite): Promise<MemoryWithHead> {
    return this.db.$transaction(async (tx) => {
      const memory = await tx.memory.create({
        data: {
          id,
          tenantId: actor.tenantId,
          memoryStoreId: storeId,
          ...memoryFields(write),
          headVersion: 1,
        },
      });
      const head = await tx.memoryVersion.create({ data: versionFields(actor, memory, 1, write) });
      return { memory, head };
    });
  }

  /** Writes the memory's next version; `expectedHead` guards against a concurrent writer. */
  write(actor: Actor, memory: Memory, write: MemoryWrite): Promise<MemoryWithHead> {
    return this.db.$transaction(async (tx) => {
      const next = memory.headVersion + 1;
      const updated = await tx.memory.update({
        where: { id: memory.id, headVersion: memory.headVersion },
        data: {
          ...memoryFields(write),
          headVersion: next,
          deletedAt: write.operation === 'deleted' ? this.clock.now() : null,
        },
      });
      const head = await tx.memoryVersion.create({ data: versionFields(actor, updated, next, write) });
      return { memory: updated, head };
    });
  }

  async find(actor: Actor, storeId: string, id: string): Promise<MemoryWithHead | null> {
    const memory = await this.db.memory.findFirst({
      where: { id, memoryStoreId: storeId, tenantId: actor.tenantId },
    });
    return memory ? this.withHead(memory) : null;
  }

  findByPath(actor: Actor, storeId: string, path: string): Promise<Memory | null> {
    return this.db.memory.findFirst({ where: { path, memoryStoreId: storeId, tenantId: actor.tenantId } });
  }

  /** Live memories under a path prefix, in path order. */
  async listLive(actor: Actor, storeId: string, pathPrefix: string): Promise<MemoryWithHead[]> {
    const memories = await this.db.memory.findMany({
      where: {
        memoryStoreId: storeId,
        tenantId: actor.tenantId,
        deletedAt: null,
        path: { startsWith: pathPrefix },
      },
      orderBy: { path: 'asc' },
    });
    if (memories.length === 0) return [];
    const heads = await this.db.memoryVersion.findMany({
      where: { OR: memories.map((m) => ({ memoryId: m.id, version: m.headVersion })) },
    });
    const byMemory = new Map(heads.map((h) => [h.memoryId, h]));
    return memories.flatMap((memory) => {
      const head = byMemory.get(memory.id);
      return head ? [{ memory, head }] : [];
    });
  }

  private async withHead(memory: Memory): Promise<MemoryWithHead | null> {
    const head = await this.db.memoryVersion.findUnique({
      where: { memoryId_version: { memoryId: memory.id, version: memory.headVersion } },
    });
    return head ? { memory, head } : null;
  }
}

function memoryFields(write: MemoryWrite) {
  return {
    path: write.path,
    content: write.content,
    contentSha256: write.contentSha256,
    sizeBytes: write.sizeBytes,
  };
}

function versionFields(
  actor: Actor,
  memory: Memory,
  version: number,
  write: MemoryWrite,
): Prisma.MemoryVersionUncheckedCreateInput {
  return {
    id: write.versionId,
    tenantId: actor.tenantId,
    memoryStoreId: memory.memoryStoreId,
    memoryId: memory.id,
    version,
    operation: write.operation,
    path: write.path,
    content: write.operation === 'deleted' ? null : write.content,
    createdBy: write.createdBy,
  };
}
