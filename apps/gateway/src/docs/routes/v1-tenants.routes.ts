import { AccessListQuerySchema, CreateTenantRequestSchema } from '@agentry/contracts';
import { V1CreatedTenantSchema, V1TenantPageSchema } from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_TENANTS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/tenants',
    operationId: 'tenants_list',
    summary: 'List tenants',
    query: AccessListQuerySchema,
    reply: V1TenantPageSchema,
  },
  {
    method: 'post',
    path: '/v1/tenants',
    operationId: 'tenants_create',
    summary: 'Create a tenant',
    body: CreateTenantRequestSchema,
    reply: V1CreatedTenantSchema,
  },
];
