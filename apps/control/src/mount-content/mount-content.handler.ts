import { Controller } from '@nestjs/common';
import { MountContentSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { MountContentRepository } from './mount-content.repository.js';

/**
 * What the dataplane and the workers mount into a session (files, memory stores, skill versions), read
 * here because control owns those tables.
 */
@Controller()
export class MountContentHandler {
  constructor(private readonly content: MountContentRepository) {}

  @RpcHandler(S.file)
  async file(req: RpcParsedRequest<typeof S.file>) {
    const bytes = await this.content.fileContent(req.tenantId, req.fileId);
    return { content_base64: bytes ? Buffer.from(bytes).toString('base64') : null };
  }

  @RpcHandler(S.memories)
  async memories(req: RpcParsedRequest<typeof S.memories>) {
    const rows = await this.content.liveMemories(req.tenantId, req.storeId, {
      ...(req.afterPath !== undefined ? { afterPath: req.afterPath } : {}),
      limit: req.limit,
    });
    return { data: rows.slice(0, req.limit), hasMore: rows.length > req.limit };
  }

  @RpcHandler(S.skillVersion)
  async skillVersion(req: RpcParsedRequest<typeof S.skillVersion>) {
    const version = /^\d+$/.test(req.version)
      ? Number(req.version)
      : req.version === 'latest'
        ? await this.content.latestSkillVersion(req.tenantId, req.skillId)
        : null;
    if (version === null) return { skill: null };
    return { skill: await this.content.skillVersion(req.tenantId, req.skillId, version) };
  }
}
