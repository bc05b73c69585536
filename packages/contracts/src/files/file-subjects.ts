import { z } from 'zod';
import { entitySubjects } from '../nats/entity-subjects.js';
import { FileDeletedSchema, FileMetadataSchema, ListFilesParamsSchema } from './files.js';

/** A file's bytes travel base64-encoded inside one NATS message, so uploads are bounded by its size. */
const UploadFileRpcBodySchema = z.object({
  filename: z.string().min(1).max(255),
  mime_type: z.string().min(1).max(255),
  content_base64: z.string(),
});
const FileContentSchema = z.object({
  filename: z.string(),
  mime_type: z.string(),
  content_base64: z.string(),
});

const file = entitySubjects('control.file', FileMetadataSchema);

/** Request/reply subjects of the control service for uploaded files. */
export const FileSubjects = {
  uploadFile: file.onScope('upload', FileMetadataSchema, { body: UploadFileRpcBodySchema }),
  getFile: file.get(),
  listFiles: file.list(ListFilesParamsSchema),
  downloadFile: file.onItem('download', FileContentSchema),
  deleteFile: file.onItem('delete', FileDeletedSchema),
} as const;
