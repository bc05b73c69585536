import { createHash } from 'node:crypto';
import { SessionResourceSubjects } from '@agentry/contracts';
import { MountContentClient, type RpcClient } from '@agentry/platform';

/** A memory as the memory tools see it: its path in the store and its text. */
export interface StoredMemory {
  path: string;
  content: string;
}

/** Reads and writes the memory stores of one session; writes are attributed to the session. */
export interface MemoryStoreAccess {
  memories(storeId: string): Promise<StoredMemory[]>;
  /** Writes one memory (`null`: deletes it), only if it is still `before` (null: it did not exist). */
  write(storeId: string, path: string, content: string | null, before: string | null): Promise<void>;
}

/**
 * Over control, which owns the stores: memories are read as the mounts read them, and written through the
 * session write-back (refused unless the session holds the store `read_write`, each change a new version).
 */
export function controlMemoryStoreAccess(
  rpc: RpcClient,
  scope: { tenantId: string; sessionId: string },
): MemoryStoreAccess {
  const content = new MountContentClient(rpc);
  return {
    memories: (storeId) => content.memories(scope.tenantId, storeId),
    async write(storeId, path, text, before) {
      await rpc.request(SessionResourceSubjects.writeMemories, {
        ...scope,
        memoryStoreId: storeId,
        changes: [
          {
            path,
            content: text,
            base_content_sha256: before === null ? null : createHash('sha256').update(before).digest('hex'),
          },
        ],
      });
    },
  };
}
