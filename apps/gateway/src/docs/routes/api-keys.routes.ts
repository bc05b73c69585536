import { AccessListQuerySchema, CreateApiKeyRequestSchema } from '@agentry/contracts';
import type { RouteEntry } from '../route-entry.js';

export const API_KEYS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/keys',
    operationId: 'apiKeys_list',
    summary: 'List keys',
    query: AccessListQuerySchema,
  },
  {
    method: 'post',
    path: '/api/keys',
    operationId: 'apiKeys_create',
    summary: 'Create a key',
    body: CreateApiKeyRequestSchema,
  },
  { method: 'delete', path: '/api/keys/{id}', operationId: 'apiKeys_revoke', summary: 'Revoke an API key' },
];
