import { MemoryWorkspaceFs } from '../memory/memory-workspace-fs.js';
import type { SqlPort } from '../postgres/sql-port.js';

const SELECT_FILES =
  'select id, content from files where tenant_id = $1 and id = any($2) and deleted_at is null and content is not null';
const SELECT_MEMORIES =
  'select path, content from memories where tenant_id = $1 and memory_store_id = $2 and deleted_at is null order by path';

/** Uploaded files under their names; a file deleted since it was attached is left out. */
export async function filesTree(
  sql: SqlPort,
  tenantId: string,
  files: ReadonlyArray<{ name: string; fileId: string }>,
): Promise<MemoryWorkspaceFs> {
  const { rows } = await sql.query(SELECT_FILES, [tenantId, files.map((f) => f.fileId)]);
  const content = new Map(rows.map((r: { id: string; content: Buffer }) => [r.id, r.content]));
  const fs = new MemoryWorkspaceFs();
  for (const file of files) {
    const bytes = content.get(file.fileId);
    if (bytes) await fs.writeBytes(file.name, new Uint8Array(bytes), { createParents: true });
  }
  return fs;
}

/** A memory store's live memories, each a file at its path (the store's `/a/b.md` is `a/b.md` here). */
export async function memoryStoreTree(
  sql: SqlPort,
  tenantId: string,
  storeId: string,
): Promise<MemoryWorkspaceFs> {
  const { rows } = await sql.query(SELECT_MEMORIES, [tenantId, storeId]);
  const fs = new MemoryWorkspaceFs();
  for (const row of rows as Array<{ path: string; content: string }>) {
    const path = row.path.replace(/^\/+/, '');
    if (path) await fs.writeText(path, row.content, { createParents: true });
  }
  return fs;
}
