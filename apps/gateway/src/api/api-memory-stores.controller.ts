import { Controller, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateMemoryStoreRequestSchema,
  ListParamsSchema,
  UpdateMemoryStoreRequestSchema,
} from '@agentry/contracts';
import { rpcRoutes } from '../http/rpc-routes.js';
import { camelKeys } from './api-case.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** `/api/memory-stores`: stores in camelCase over the `/v1` handlers (the bodies have no snake_case field). */
@Controller('api/memory-stores')
@UseFilters(ApiErrorFilter)
export class ApiMemoryStoresController extends rpcRoutes({
  create: {
    route: 'POST',
    subject: S.createMemoryStore,
    body: CreateMemoryStoreRequestSchema,
    reply: camelKeys,
  },
  list: { route: 'GET', subject: S.listMemoryStores, query: ListParamsSchema, page: camelKeys },
  get: { route: 'GET :id', subject: S.getMemoryStore, reply: camelKeys },
  update: {
    route: 'PATCH :id',
    subject: S.updateMemoryStore,
    body: UpdateMemoryStoreRequestSchema,
    reply: camelKeys,
  },
  archive: { route: 'POST :id/archive', subject: S.archiveMemoryStore, reply: camelKeys },
  remove: { route: 'DELETE :id', subject: S.deleteMemoryStore, status: 204 },
}) {}
