import { createHash } from 'node:crypto';
import type { MemoryStore as StoreRow, MemoryVersion as VersionRow } from '@agentry/db';
import type {
  Actor,
  Memory,
  MemoryActor,
  MemoryStore,
  MemoryVersion,
  MemoryView,
  Metadata,
} from '@agentry/contracts';
import type { MemoryWithHead } from './memories.repository.js';

export function sha256Hex(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

export function byteSize(content: string): number {
  return Buffer.byteLength(content, 'utf8');
}

/** Who a version is attributed to: the API key when there is one, else the signed-in user. */
export function toMemoryActor(actor: Actor): MemoryActor {
  if (actor.apiKeyId) return { type: 'api_actor', api_key_id: actor.apiKeyId };
  if (actor.userId) return { type: 'user_actor', user_id: actor.userId };
  return { type: 'service_account_actor', service_account_id: actor.tenantId };
}

export function toMemoryStoreDto(row: StoreRow): MemoryStore {
  return {
    type: 'memory_store',
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    metadata: row.metadata as Metadata,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

export function toMemoryDto({ memory, head }: MemoryWithHead, view: MemoryView = 'basic'): Memory {
  return {
    type: 'memory',
    id: memory.id,
    memory_store_id: memory.memoryStoreId,
    memory_version_id: head.id,
    path: memory.path,
    content_sha256: memory.contentSha256 ?? sha256Hex(memory.content),
    content_size_bytes: memory.sizeBytes,
    content: view === 'full' ? memory.content : null,
    created_at: memory.createdAt.toISOString(),
    updated_at: memory.updatedAt.toISOString(),
  };
}

/** A redacted version keeps its path and author but no longer has content, a hash or a size. */
export function toMemoryVersionDto(row: VersionRow, view: MemoryView = 'basic'): MemoryVersion {
  const content = row.content;
  return {
    type: 'memory_version',
    id: row.id,
    memory_id: row.memoryId,
    memory_store_id: row.memoryStoreId,
    operation: row.operation as MemoryVersion['operation'],
    path: row.path,
    content: view === 'full' ? content : null,
    content_sha256: content === null ? null : sha256Hex(content),
    content_size_bytes: content === null ? null : byteSize(content),
    ...(row.createdBy ? { created_by: row.createdBy as MemoryActor } : {}),
    redacted_at: row.redactedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
