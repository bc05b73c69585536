import { Controller } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateMemoryStoreRequestSchema,
  ListParamsSchema,
  UpdateMemoryStoreRequestSchema,
} from '@agentry/contracts';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/memory_stores')
export class MemoryStoresController extends rpcRoutes({
  create: { route: 'POST', subject: S.createMemoryStore, body: CreateMemoryStoreRequestSchema },
  list: { route: 'GET', subject: S.listMemoryStores, query: ListParamsSchema },
  get: { route: 'GET :id', subject: S.getMemoryStore },
  update: { route: 'POST :id', subject: S.updateMemoryStore, body: UpdateMemoryStoreRequestSchema },
  archive: { route: 'POST :id/archive', subject: S.archiveMemoryStore },
  delete: { route: 'DELETE :id', subject: S.deleteMemoryStore },
}) {}
