import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import {
  CreateMemoryRequestSchema,
  ListMemoriesParamsSchema,
  UpdateMemoryRequestSchema,
} from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { ViewQuerySchema } from './memory-view-query.js';

@Controller('v1/memory_stores/:storeId/memories')
export class MemoriesController extends rpcRoutes({
  create: {
    route: 'POST',
    subject: S.createMemory,
    body: CreateMemoryRequestSchema,
    query: ViewQuerySchema,
  },
  list: { route: 'GET', subject: S.listMemories, query: ListMemoriesParamsSchema },
  get: { route: 'GET :id', subject: S.getMemory, query: ViewQuerySchema },
  update: {
    route: 'POST :id',
    subject: S.updateMemory,
    body: UpdateMemoryRequestSchema,
    query: ViewQuerySchema,
  },
  delete: { route: 'DELETE :id', subject: S.deleteMemory },
}) {}
