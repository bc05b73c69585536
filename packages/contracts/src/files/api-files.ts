import { z } from 'zod';
import type { FileMetadata } from './files.js';

/**
 * The largest text an `/api` upload may carry: the most the file store can be configured to keep,
 * since a file travels base64-encoded in one message. AgentScope documents 1 MiB, which no store here
 * can hold; a smaller configured limit is enforced by the store with the same 413.
 */
export const API_FILE_CONTENT_MAX_BYTES = 700_000;

export const ApiUploadFileRequestSchema = z.strictObject({
  filename: z.string({ error: 'filename must be a string' }).min(1, 'filename required').max(255),
  content: z.string({ error: 'content must be a string' }),
  contentType: z.string().min(1).max(255).optional(),
});
export type ApiUploadFileRequest = z.infer<typeof ApiUploadFileRequestSchema>;

export const ApiFileSchema = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type ApiFile = z.infer<typeof ApiFileSchema>;

export const ApiFileContentSchema = z.object({ id: z.string(), filename: z.string(), content: z.string() });

export function fileToApi(file: FileMetadata): ApiFile {
  return {
    id: file.id,
    filename: file.filename,
    contentType: file.mime_type,
    sizeBytes: file.size_bytes,
    createdAt: file.created_at,
  };
}
