import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { File, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

/** A file without its bytes, as listings and metadata reads need it. */
export type FileInfo = Omit<File, 'content'>;

const INFO = {
  id: true,
  tenantId: true,
  namespaceId: true,
  filename: true,
  mimeType: true,
  sizeBytes: true,
  sha256: true,
  storageKey: true,
  createdAt: true,
  deletedAt: true,
} as const;

@Injectable()
export class FilesRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(
    actor: Actor,
    id: string,
    data: { filename: string; mimeType: string; content: Uint8Array<ArrayBuffer>; sha256: string },
  ): Promise<FileInfo> {
    return this.db.file.create({
      data: {
        id,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        sizeBytes: data.content.byteLength,
        ...data,
      },
      select: INFO,
    });
  }

  findInfo(actor: Actor, id: string): Promise<FileInfo | null> {
    return this.db.file.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, deletedAt: null },
      select: INFO,
    });
  }

  findWithContent(actor: Actor, id: string): Promise<File | null> {
    return this.db.file.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, deletedAt: null },
    });
  }

  list(
    actor: Actor,
    options: { limit: number; afterId?: string; order: 'asc' | 'desc'; ids?: string[] },
  ): Promise<FileInfo[]> {
    return this.db.file.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        deletedAt: null,
        ...(options.ids ? { id: { in: options.ids } } : {}),
        ...(options.afterId
          ? { AND: [{ id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }] }
          : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
      select: INFO,
    });
  }

  /** Deletion drops the bytes at once; the row stays as a tombstone. */
  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.file.update({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data: { deletedAt: this.clock.now(), content: null },
    });
  }
}
