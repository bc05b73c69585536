import {
  CreateMemoryStoreRequestSchema,
  ListParamsSchema,
  UpdateMemoryStoreRequestSchema,
} from '@agentry/contracts';
import {
  ApiMemorySchema,
  ApiMemoryVersionSchema,
  ApiPutMemoryRequestSchema,
  ApiRedactMemoryRequestSchema,
} from '@agentry/contracts/api';
import type { RouteEntry } from '../route-entry.js';

export const API_MEMORY_STORES_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/memory-stores',
    operationId: 'apiMemoryStores_list',
    summary: 'List memory stores',
    query: ListParamsSchema,
  },
  {
    method: 'post',
    path: '/api/memory-stores',
    operationId: 'apiMemoryStores_create',
    summary: 'Create a memory store',
    body: CreateMemoryStoreRequestSchema,
  },
  {
    method: 'get',
    path: '/api/memory-stores/{id}',
    operationId: 'apiMemoryStores_get',
    summary: 'Get a memory store',
  },
  {
    method: 'patch',
    path: '/api/memory-stores/{id}',
    operationId: 'apiMemoryStores_update',
    summary: 'Update a memory store',
    body: UpdateMemoryStoreRequestSchema,
  },
  {
    method: 'delete',
    path: '/api/memory-stores/{id}',
    operationId: 'apiMemoryStores_remove',
    summary: 'Delete a memory store',
    status: 204,
  },
  {
    method: 'post',
    path: '/api/memory-stores/{id}/archive',
    operationId: 'apiMemoryStores_archive',
    summary: 'Archive a memory store',
  },
  {
    method: 'get',
    path: '/api/memory-stores/{id}/memories',
    operationId: 'apiMemories_list',
    summary: 'List memories',
    query: ListParamsSchema,
    reply: ApiMemorySchema,
    replyList: true,
  },
  {
    method: 'get',
    path: '/api/memory-stores/{id}/memories/{path}',
    operationId: 'apiMemories_get',
    summary: 'Get a memory',
    reply: ApiMemorySchema,
  },
  {
    method: 'put',
    path: '/api/memory-stores/{id}/memories/{path}',
    operationId: 'apiMemories_put',
    summary: 'Write a memory',
    body: ApiPutMemoryRequestSchema,
    reply: ApiMemorySchema,
  },
  {
    method: 'delete',
    path: '/api/memory-stores/{id}/memories/{path}',
    operationId: 'apiMemories_remove',
    summary: 'Delete a memory',
    status: 204,
  },
  {
    method: 'get',
    path: '/api/memory-stores/{id}/memory-versions/{path}',
    operationId: 'apiMemories_versions',
    summary: "List a memory's versions",
    query: ListParamsSchema,
    reply: ApiMemoryVersionSchema,
    replyList: true,
  },
  {
    method: 'post',
    path: '/api/memory-stores/{id}/redact',
    operationId: 'apiMemories_redact',
    summary: 'Redact a memory store',
    body: ApiRedactMemoryRequestSchema,
    reply: ApiMemorySchema,
  },
];
