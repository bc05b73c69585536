import { ListFilesParamsSchema } from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_FILES_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/files',
    operationId: 'files_list',
    summary: 'List files',
    query: ListFilesParamsSchema,
  },
  { method: 'post', path: '/v1/files', operationId: 'files_upload', summary: 'Upload a file' },
  { method: 'get', path: '/v1/files/{id}', operationId: 'files_get', summary: 'Get a file' },
  { method: 'delete', path: '/v1/files/{id}', operationId: 'files_delete', summary: 'Delete a file' },
  {
    method: 'get',
    path: '/v1/files/{id}/content',
    operationId: 'files_download',
    summary: "Download a file's content",
  },
];
