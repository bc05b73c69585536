import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';
import type { MountedSkillVersion } from '@agentry/contracts';

/** Reads of what sessions mount (files, memories, skill versions), scoped to a tenant, never a namespace. */
@Injectable()
export class MountContentRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  async fileContent(tenantId: string, fileId: string): Promise<Uint8Array | null> {
    const row = await this.db.file.findFirst({
      where: { id: fileId, tenantId, deletedAt: null },
      select: { content: true },
    });
    return row?.content ?? null;
  }

  /** Live memories by path, after `afterPath`; one more than `limit` is read to know whether more follow. */
  liveMemories(
    tenantId: string,
    storeId: string,
    page: { afterPath?: string; limit: number },
  ): Promise<{ path: string; content: string }[]> {
    return this.db.memory.findMany({
      where: {
        tenantId,
        memoryStoreId: storeId,
        deletedAt: null,
        ...(page.afterPath !== undefined ? { path: { gt: page.afterPath } } : {}),
      },
      orderBy: { path: 'asc' },
      take: page.limit + 1,
      select: { path: true, content: true },
    });
  }

  async latestSkillVersion(tenantId: string, skillId: string): Promise<number | null> {
    const skill = await this.db.skill.findFirst({
      where: { id: skillId, tenantId, archivedAt: null },
      select: { latestVersion: true },
    });
    return skill?.latestVersion ?? null;
  }

  async skillVersion(
    tenantId: string,
    skillId: string,
    version: number,
  ): Promise<MountedSkillVersion | null> {
    const row = await this.db.skillVersion.findFirst({
      where: { tenantId, skillId, version },
      select: { version: true, content: true, frontMatter: true, files: true },
    });
    if (!row) return null;
    return {
      version: row.version,
      content: row.content,
      front_matter: (row.frontMatter as Record<string, unknown> | null) ?? null,
      files: (row.files as Record<string, { content: string }> | null) ?? null,
    };
  }
}
