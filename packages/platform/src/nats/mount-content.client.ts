import { MountContentSubjects } from '@agentry/contracts';
import type { RpcClient } from './rpc-client.js';

/**
 * The content sessions mount (files, memory stores, skill versions), asked of control, which owns it.
 * Shaped as the workspace library's `MountContentReader` port.
 */
export class MountContentClient {
  constructor(private readonly rpc: RpcClient) {}

  async file(tenantId: string, fileId: string): Promise<Uint8Array | null> {
    const { content_base64 } = await this.rpc.request(MountContentSubjects.file, { tenantId, fileId });
    return content_base64 === null ? null : new Uint8Array(Buffer.from(content_base64, 'base64'));
  }

  /** Every live memory of the store, page by page (control cuts a page to what one message carries). */
  async memories(tenantId: string, storeId: string): Promise<Array<{ path: string; content: string }>> {
    const all: Array<{ path: string; content: string }> = [];
    let afterPath: string | undefined;
    for (;;) {
      const page = await this.rpc.request(MountContentSubjects.memories, {
        tenantId,
        storeId,
        ...(afterPath !== undefined ? { afterPath } : {}),
      });
      all.push(...page.data);
      const last = page.data.at(-1);
      if (!page.hasMore || !last) return all;
      afterPath = last.path;
    }
  }

  async skillVersion(tenantId: string, skillId: string, ref: string) {
    const { skill } = await this.rpc.request(MountContentSubjects.skillVersion, {
      tenantId,
      skillId,
      version: ref,
    });
    return skill;
  }
}
