import { z } from 'zod';
import { IsoDateTimeSchema, ListParamsSchema, queryArraySchema } from '../common/common.js';

/** Files are uploaded as multipart form data (`file` plus these fields). */
export const UploadFileFormSchema = z.object({
  /** Agentry keeps uploads until deleted unless an expiry is given. */
  expires_in_seconds: z.coerce.number().int().min(60).max(7_776_000).optional(),
});

const FileScopeSchema = z.object({ type: z.literal('session'), id: z.string() });

export const FileMetadataSchema = z.object({
  type: z.literal('file'),
  id: z.string(),
  filename: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int().nonnegative(),
  /** Files produced inside a session are scoped to it. */
  scope: FileScopeSchema.nullable().optional(),
  downloadable: z.boolean().optional(),
  expires_at: IsoDateTimeSchema.nullable().optional(),
  created_at: IsoDateTimeSchema,
});
export type FileMetadata = z.infer<typeof FileMetadataSchema>;

export const FileDeletedSchema = z.object({ id: z.string(), type: z.literal('file_deleted') });

export const ListFilesParamsSchema = ListParamsSchema.extend({
  ids: queryArraySchema(z.string()).optional(),
  scope_id: z.string().optional(),
});
export type ListFilesParams = z.infer<typeof ListFilesParamsSchema>;
