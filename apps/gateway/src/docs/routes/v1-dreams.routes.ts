import { ControlSubjects } from '@agentry/contracts';
import { CreateDreamRequestSchema, DreamSchema, ListDreamsParamsSchema } from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_DREAMS_ROUTES: RouteEntry[] = [
  {
    method: 'post',
    path: '/v1/dreams',
    operationId: 'dreams_create',
    summary: 'Start a dream over a memory store',
    body: CreateDreamRequestSchema,
    reply: DreamSchema,
  },
  {
    method: 'get',
    path: '/v1/dreams',
    operationId: 'dreams_list',
    summary: 'List dreams, newest first',
    query: ListDreamsParamsSchema,
    reply: ControlSubjects.listDreams.response,
  },
  {
    method: 'get',
    path: '/v1/dreams/{id}',
    operationId: 'dreams_get',
    summary: 'Get a dream',
    reply: DreamSchema,
  },
  {
    method: 'post',
    path: '/v1/dreams/{id}/archive',
    operationId: 'dreams_archive',
    summary: 'Archive an ended dream',
    reply: DreamSchema,
  },
  {
    method: 'post',
    path: '/v1/dreams/{id}/cancel',
    operationId: 'dreams_cancel',
    summary: 'Cancel a pending or running dream',
    reply: DreamSchema,
  },
];
