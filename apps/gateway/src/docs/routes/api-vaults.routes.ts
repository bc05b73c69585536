import { ListParamsSchema } from '@agentry/contracts';
import {
  ApiCreateCredentialRequestSchema,
  ApiCredentialSchema,
  ApiUpdateCredentialRequestSchema,
} from '@agentry/contracts/api';
import { ApiCreateVaultSchema, ApiUpdateVaultSchema } from '../../api/api-vaults.controller.js';
import type { RouteEntry } from '../route-entry.js';

export const API_VAULTS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/vaults',
    operationId: 'apiVaults_list',
    summary: 'List vaults',
    query: ListParamsSchema,
  },
  {
    method: 'post',
    path: '/api/vaults',
    operationId: 'apiVaults_create',
    summary: 'Create a vault',
    body: ApiCreateVaultSchema,
  },
  { method: 'get', path: '/api/vaults/{id}', operationId: 'apiVaults_get', summary: 'Get a vault' },
  {
    method: 'patch',
    path: '/api/vaults/{id}',
    operationId: 'apiVaults_update',
    summary: 'Update a vault',
    body: ApiUpdateVaultSchema,
  },
  {
    method: 'delete',
    path: '/api/vaults/{id}',
    operationId: 'apiVaults_remove',
    summary: 'Delete a vault',
    status: 204,
  },
  {
    method: 'post',
    path: '/api/vaults/{id}/archive',
    operationId: 'apiVaults_archive',
    summary: 'Archive a vault',
  },
  {
    method: 'get',
    path: '/api/vaults/{id}/credentials',
    operationId: 'apiVaultCredentials_list',
    summary: 'List credentials',
    query: ListParamsSchema,
    reply: ApiCredentialSchema,
    replyList: true,
  },
  {
    method: 'post',
    path: '/api/vaults/{id}/credentials',
    operationId: 'apiVaultCredentials_create',
    summary: 'Create a credential',
    body: ApiCreateCredentialRequestSchema,
    reply: ApiCredentialSchema,
  },
  {
    method: 'patch',
    path: '/api/vaults/{id}/credentials/{cid}',
    operationId: 'apiVaultCredentials_update',
    summary: 'Update a credential',
    body: ApiUpdateCredentialRequestSchema,
    reply: ApiCredentialSchema,
  },
  {
    method: 'delete',
    path: '/api/vaults/{id}/credentials/{cid}',
    operationId: 'apiVaultCredentials_remove',
    summary: 'Delete a credential',
    status: 204,
  },
];
