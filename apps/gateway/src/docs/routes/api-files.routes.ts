import { ListParamsSchema } from '@agentry/contracts';
import { ApiFileContentSchema, ApiFileSchema, ApiUploadFileRequestSchema } from '@agentry/contracts/api';
import type { RouteEntry } from '../route-entry.js';

export const API_FILES_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/files',
    operationId: 'apiFiles_list',
    summary: 'List files',
    query: ListParamsSchema,
    reply: ApiFileSchema,
    replyList: true,
  },
  {
    method: 'post',
    path: '/api/files',
    operationId: 'apiFiles_upload',
    summary: 'Upload a file',
    body: ApiUploadFileRequestSchema,
    reply: ApiFileSchema,
  },
  {
    method: 'get',
    path: '/api/files/{id}',
    operationId: 'apiFiles_get',
    summary: 'Get a file',
    reply: ApiFileSchema,
  },
  {
    method: 'delete',
    path: '/api/files/{id}',
    operationId: 'apiFiles_remove',
    summary: 'Delete a file',
    status: 204,
  },
  {
    method: 'get',
    path: '/api/files/{id}/content',
    operationId: 'apiFiles_content',
    summary: "Download a file's content",
    reply: ApiFileContentSchema,
  },
];
