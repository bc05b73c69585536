import { z } from 'zod';
import {
  fitsMemoryContent,
  MEMORY_CONTENT_TOO_LARGE,
  type Memory,
  type MemoryVersion,
} from './memory-stores.js';

/**
 * AgentScope memories. A memory's `path` is relative to its store (`notes/a.md`), as in the URL
 * `/api/memory-stores/{id}/memories/notes/a.md`; stores keep it absolute (`/notes/a.md`).
 * `headVersion` is the id of the memory's current version, which is what reads its history.
 */
export const ApiMemorySchema = z.object({
  id: z.string(),
  storeId: z.string(),
  path: z.string(),
  content: z.string(),
  headVersion: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ApiMemory = z.infer<typeof ApiMemorySchema>;

/** Content within the memory limit, checked here so a too-large write is refused before anything changes. */
const ApiMemoryContentSchema = z
  .string({ error: 'content must be a string' })
  .refine(fitsMemoryContent, MEMORY_CONTENT_TOO_LARGE);

export const ApiPutMemoryRequestSchema = z.strictObject({ content: ApiMemoryContentSchema });
export type ApiPutMemoryRequest = z.infer<typeof ApiPutMemoryRequestSchema>;

/** Removes `path`'s content from every version; `replacement`, when given, becomes its new content. */
export const ApiRedactMemoryRequestSchema = z.strictObject({
  path: z.string({ error: 'path must be a string' }).min(1, 'path required'),
  replacement: ApiMemoryContentSchema.optional(),
});
export type ApiRedactMemoryRequest = z.infer<typeof ApiRedactMemoryRequestSchema>;

export const ApiMemoryVersionSchema = z.object({
  id: z.string(),
  memoryId: z.string(),
  storeId: z.string(),
  operation: z.enum(['created', 'modified', 'deleted']),
  path: z.string().nullable(),
  content: z.string().nullable(),
  redactedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiMemoryVersion = z.infer<typeof ApiMemoryVersionSchema>;

/** `notes/a.md` (or `/notes/a.md`) → the store's `/notes/a.md`. */
export function apiMemoryPathToV1(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

function toApiPath(path: string): string {
  return path.replace(/^\//, '');
}

export function memoryToApi(memory: Memory): ApiMemory {
  return {
    id: memory.id,
    storeId: memory.memory_store_id,
    path: toApiPath(memory.path),
    content: memory.content ?? '',
    headVersion: memory.memory_version_id,
    createdAt: memory.created_at,
    updatedAt: memory.updated_at,
  };
}

export function memoryVersionToApi(version: MemoryVersion): ApiMemoryVersion {
  return {
    id: version.id,
    memoryId: version.memory_id,
    storeId: version.memory_store_id,
    operation: version.operation,
    path: version.path ? toApiPath(version.path) : null,
    content: version.content ?? null,
    redactedAt: version.redacted_at ?? null,
    createdAt: version.created_at,
  };
}
