import { z } from 'zod';
import { IsoDateTimeSchema } from '../common/common.js';

/** Things mounted into a session's workspace (CMA `resources[]`). */

const MountPathSchema = z.string().min(1).max(1024).startsWith('/', 'mount_path must be absolute');

export const CheckoutSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('branch'), name: z.string().min(1) }),
  z.strictObject({ type: z.literal('commit'), sha: z.string().min(7).max(64) }),
]);
export type Checkout = z.infer<typeof CheckoutSchema>;

export const MemoryStoreAccessSchema = z.enum(['read_write', 'read_only']);

const GitHubRepositoryResourceParamsSchema = z.strictObject({
  type: z.literal('github_repository'),
  url: z.url(),
  authorization_token: z.string().min(1).optional(),
  checkout: CheckoutSchema.nullable().optional(),
  mount_path: MountPathSchema.nullable().optional(),
});
export const FileResourceParamsSchema = z.strictObject({
  type: z.literal('file'),
  file_id: z.string().min(1),
  mount_path: MountPathSchema.nullable().optional(),
});
const MemoryStoreResourceParamsSchema = z.strictObject({
  type: z.literal('memory_store'),
  memory_store_id: z.string().min(1),
  access: MemoryStoreAccessSchema.nullable().optional(),
  instructions: z.string().max(4096).nullable().optional(),
});

export const SessionResourceParamsSchema = z.discriminatedUnion('type', [
  GitHubRepositoryResourceParamsSchema,
  FileResourceParamsSchema,
  MemoryStoreResourceParamsSchema,
]);
export type SessionResourceParams = z.infer<typeof SessionResourceParamsSchema>;

/** `POST /v1/sessions/{id}/resources` adds files only. */
export const AddSessionResourceRequestSchema = FileResourceParamsSchema;
export type AddSessionResourceRequest = z.infer<typeof AddSessionResourceRequestSchema>;

/** Updating a resource rotates its repository token; nothing else is mutable. */
export const UpdateSessionResourceRequestSchema = z.strictObject({ authorization_token: z.string().min(1) });
export type UpdateSessionResourceRequest = z.infer<typeof UpdateSessionResourceRequestSchema>;

/** As returned; the repository token is never echoed back. */
export const SessionResourceSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('github_repository'),
    id: z.string(),
    url: z.string(),
    mount_path: z.string(),
    checkout: CheckoutSchema.nullable().optional(),
    created_at: IsoDateTimeSchema,
    updated_at: IsoDateTimeSchema,
  }),
  z.object({
    type: z.literal('file'),
    id: z.string(),
    file_id: z.string(),
    mount_path: z.string(),
    created_at: IsoDateTimeSchema,
    updated_at: IsoDateTimeSchema,
  }),
  z.object({
    type: z.literal('memory_store'),
    /** Agentry extension: CMA leaves it out, but a memory store attachment is addressable like the others. */
    id: z.string().optional(),
    memory_store_id: z.string(),
    access: MemoryStoreAccessSchema.nullable().optional(),
    description: z.string().optional(),
    instructions: z.string().nullable().optional(),
    mount_path: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    created_at: IsoDateTimeSchema.optional(),
    updated_at: IsoDateTimeSchema.optional(),
  }),
]);
export type SessionResource = z.infer<typeof SessionResourceSchema>;

export const SessionResourceDeletedSchema = z.object({
  id: z.string(),
  type: z.literal('session_resource_deleted'),
});
export type SessionResourceDeleted = z.infer<typeof SessionResourceDeletedSchema>;

/** Where CMA mounts resources that name no `mount_path`. */
export const RESOURCE_MOUNTS = {
  /** A file resource: `/mnt/session/uploads/<file_id>`. */
  uploads: '/mnt/session/uploads',
  /** A repository: `/workspace/<repo-name>`. */
  repositories: '/workspace',
  /** A memory store: `/mnt/memory/<slug of the store's name>`. */
  memory: '/mnt/memory',
} as const;
