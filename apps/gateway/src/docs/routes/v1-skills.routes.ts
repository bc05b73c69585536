import { ListParamsSchema, ListSkillsParamsSchema } from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_SKILLS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/skills',
    operationId: 'skills_list',
    summary: 'List skills',
    query: ListSkillsParamsSchema,
  },
  { method: 'post', path: '/v1/skills', operationId: 'skills_create', summary: 'Create a skill' },
  { method: 'get', path: '/v1/skills/{id}', operationId: 'skills_get', summary: 'Get a skill' },
  { method: 'delete', path: '/v1/skills/{id}', operationId: 'skills_delete', summary: 'Delete a skill' },
  {
    method: 'get',
    path: '/v1/skills/{id}/versions',
    operationId: 'skills_listVersions',
    summary: 'List versions',
    query: ListParamsSchema,
  },
  {
    method: 'post',
    path: '/v1/skills/{id}/versions',
    operationId: 'skills_createVersion',
    summary: 'Create version',
  },
  {
    method: 'get',
    path: '/v1/skills/{id}/versions/{version}',
    operationId: 'skills_getVersion',
    summary: 'Get version',
    auth: 'user-or-sessions-token',
  },
  {
    method: 'get',
    path: '/v1/skills/{id}/versions/{version}/content',
    operationId: 'skillContent_download',
    summary: "Download a skill version's archive",
    auth: 'user-or-sessions-token',
  },
];
