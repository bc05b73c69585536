import { z } from 'zod';
import { rpcSubject } from '../nats/subject.js';
import { ById, Scoped } from '../nats/request-fields.js';
import { pageSchema } from '../common/paging.js';
import { FileDeletedSchema, FileMetadataSchema, ListFilesParamsSchema } from './files.js';

/** A file's bytes travel base64-encoded inside one NATS message, so uploads are bounded by its size. */
export const UploadFileRpcBodySchema = z.object({
  filename: z.string().min(1).max(255),
  mime_type: z.string().min(1).max(255),
  content_base64: z.string(),
});
export const FileContentSchema = z.object({
  filename: z.string(),
  mime_type: z.string(),
  content_base64: z.string(),
});

/** Request/reply subjects of the control service for uploaded files. */
export const FileSubjects = {
  uploadFile: rpcSubject(
    'control.file.upload',
    z.object({ ...Scoped, body: UploadFileRpcBodySchema }),
    FileMetadataSchema,
  ),
  getFile: rpcSubject('control.file.get', z.object(ById), FileMetadataSchema),
  listFiles: rpcSubject(
    'control.file.list',
    z.object({ ...Scoped, query: ListFilesParamsSchema }),
    pageSchema(FileMetadataSchema),
  ),
  downloadFile: rpcSubject('control.file.download', z.object(ById), FileContentSchema),
  deleteFile: rpcSubject('control.file.delete', z.object(ById), FileDeletedSchema),
} as const;
