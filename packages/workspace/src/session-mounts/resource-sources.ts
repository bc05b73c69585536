import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import type { MountContentReader } from './mount-content.js';

/** Uploaded files under their names; a file deleted since it was attached is left out. */
export async function filesTree(
  content: MountContentReader,
  tenantId: string,
  files: ReadonlyArray<{ name: string; fileId: string }>,
): Promise<MemoryWorkspaceFs> {
  const bytes = await Promise.all(files.map((f) => content.file(tenantId, f.fileId)));
  const fs = new MemoryWorkspaceFs();
  for (const [index, file] of files.entries()) {
    const read = bytes[index];
    if (read) await fs.writeBytes(file.name, new Uint8Array(read), { createParents: true });
  }
  return fs;
}

/** A memory store's live memories, each a file at its path (the store's `/a/b.md` is `a/b.md` here). */
export async function memoryStoreTree(
  content: MountContentReader,
  tenantId: string,
  storeId: string,
): Promise<MemoryWorkspaceFs> {
  const fs = new MemoryWorkspaceFs();
  for (const row of await content.memories(tenantId, storeId)) {
    const path = row.path.replace(/^\/+/, '');
    if (path) await fs.writeText(path, row.content, { createParents: true });
  }
  return fs;
}
