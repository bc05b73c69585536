import { z } from 'zod';
import {
  IsoDateTimeSchema,
  ListParamsSchema,
  MetadataPatchSchema,
  MetadataSchema,
} from '../common/common.js';

// 1–255 characters without control characters (the store's mount-path slug derives from it).
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const StoreNameSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(NO_CONTROL, 'name must not contain control characters');
const StoreDescriptionSchema = z.string().max(1024, 'description may be at most 1024 characters');

export const CreateMemoryStoreRequestSchema = z.strictObject({
  name: StoreNameSchema,
  description: StoreDescriptionSchema.optional(),
  metadata: MetadataSchema.optional(),
});
export type CreateMemoryStoreRequest = z.infer<typeof CreateMemoryStoreRequestSchema>;

export const UpdateMemoryStoreRequestSchema = z.strictObject({
  name: StoreNameSchema.nullable().optional(),
  description: StoreDescriptionSchema.nullable().optional(),
  metadata: MetadataPatchSchema.nullable().optional(),
});
export type UpdateMemoryStoreRequest = z.infer<typeof UpdateMemoryStoreRequestSchema>;

export const MemoryStoreSchema = z.object({
  type: z.literal('memory_store'),
  id: z.string(),
  name: z.string(),
  description: z.string(),
  metadata: MetadataSchema,
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
});
export type MemoryStore = z.infer<typeof MemoryStoreSchema>;

export const MemoryStoreDeletedSchema = z.object({ id: z.string(), type: z.literal('memory_store_deleted') });

/** Memory content is UTF-8 text of at most 100 kB. */
export const MEMORY_CONTENT_MAX_BYTES = 102_400;
const MEMORY_PATH_MAX_BYTES = 1024;

const byteLength = (s: string) => new TextEncoder().encode(s).length;

/** A memory path: absolute, NFC, no control characters, no `.`/`..` segments, ≤1024 bytes. */
export const MemoryPathSchema = z
  .string()
  .min(2)
  .refine((p) => p.startsWith('/'), 'path must start with "/"')
  .refine((p) => byteLength(p) <= MEMORY_PATH_MAX_BYTES, `path may be at most ${MEMORY_PATH_MAX_BYTES} bytes`)
  .refine((p) => p === p.normalize('NFC'), 'path must be in Unicode NFC')
  .refine((p) => NO_CONTROL.test(p) && !/[\u2028\u2029]/.test(p), 'path must not contain control characters')
  .refine(
    (p) =>
      p
        .split('/')
        .slice(1)
        .every((seg) => seg !== '' && seg !== '.' && seg !== '..'),
    'path segments must not be empty, "." or ".."',
  );

/** Whether memory content fits the limit; `/api` bodies that carry content check it before any write. */
export const fitsMemoryContent = (c: string) => byteLength(c) <= MEMORY_CONTENT_MAX_BYTES;
export const MEMORY_CONTENT_TOO_LARGE = `content may be at most ${MEMORY_CONTENT_MAX_BYTES} bytes`;

const MemoryContentSchema = z.string().refine(fitsMemoryContent, MEMORY_CONTENT_TOO_LARGE);

export const MemoryViewSchema = z.enum(['basic', 'full']);
export type MemoryView = z.infer<typeof MemoryViewSchema>;

export const CreateMemoryRequestSchema = z.strictObject({
  path: MemoryPathSchema,
  content: MemoryContentSchema.nullable(),
});
export type CreateMemoryRequest = z.infer<typeof CreateMemoryRequestSchema>;

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'content_sha256 must be 64 lowercase hex characters');

/** Optimistic concurrency for memories: the update applies only if the stored hash still matches. */
const MemoryPreconditionSchema = z.strictObject({
  type: z.literal('content_sha256'),
  content_sha256: Sha256Schema.optional(),
});

export const UpdateMemoryRequestSchema = z.strictObject({
  path: MemoryPathSchema.nullable().optional(),
  content: MemoryContentSchema.nullable().optional(),
  precondition: MemoryPreconditionSchema.optional(),
});
export type UpdateMemoryRequest = z.infer<typeof UpdateMemoryRequestSchema>;

export const MemorySchema = z.object({
  type: z.literal('memory'),
  id: z.string(),
  memory_store_id: z.string(),
  memory_version_id: z.string(),
  path: z.string(),
  content_sha256: z.string(),
  content_size_bytes: z.number().int().nonnegative(),
  /** Present with `view=full`. */
  content: z.string().nullable().optional(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
});
export type Memory = z.infer<typeof MemorySchema>;

/** A "directory" in a memory listing at limited depth. */
const MemoryPrefixSchema = z.object({ type: z.literal('memory_prefix'), path: z.string() });
export const MemoryListItemSchema = z.discriminatedUnion('type', [MemorySchema, MemoryPrefixSchema]);
export type MemoryListItem = z.infer<typeof MemoryListItemSchema>;
export const MemoryDeletedSchema = z.object({ id: z.string(), type: z.literal('memory_deleted') });

export const ListMemoriesParamsSchema = ListParamsSchema.extend({
  path_prefix: z.string().optional(),
  /** How far below `path_prefix` to list; 0 (the SDK's default) lists every memory below it. */
  depth: z.coerce.number().int().min(0).optional(),
  view: MemoryViewSchema.optional(),
});
export type ListMemoriesParams = z.infer<typeof ListMemoriesParamsSchema>;

/** Who made a memory version. */
const MemoryActorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session_actor'), session_id: z.string() }),
  z.object({ type: z.literal('api_actor'), api_key_id: z.string() }),
  z.object({ type: z.literal('user_actor'), user_id: z.string() }),
  z.object({ type: z.literal('service_account_actor'), service_account_id: z.string() }),
]);
export type MemoryActor = z.infer<typeof MemoryActorSchema>;

const MemoryVersionOperationSchema = z.enum(['created', 'modified', 'deleted']);

export const MemoryVersionSchema = z.object({
  type: z.literal('memory_version'),
  id: z.string(),
  memory_id: z.string(),
  memory_store_id: z.string(),
  operation: MemoryVersionOperationSchema,
  path: z.string().nullable().optional(),
  content: z.string().nullable().optional(),
  content_sha256: z.string().nullable().optional(),
  content_size_bytes: z.number().int().nullable().optional(),
  created_by: MemoryActorSchema.optional(),
  redacted_at: IsoDateTimeSchema.nullable().optional(),
  redacted_by: MemoryActorSchema.optional(),
  created_at: IsoDateTimeSchema,
});
export type MemoryVersion = z.infer<typeof MemoryVersionSchema>;

export const ListMemoryVersionsParamsSchema = ListParamsSchema.extend({
  memory_id: z.string().optional(),
  session_id: z.string().optional(),
  api_key_id: z.string().optional(),
  operation: MemoryVersionOperationSchema.optional(),
  view: MemoryViewSchema.optional(),
});
export type ListMemoryVersionsParams = z.infer<typeof ListMemoryVersionsParamsSchema>;
