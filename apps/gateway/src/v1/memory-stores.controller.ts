import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { CreateMemoryStoreRequestSchema, UpdateMemoryStoreRequestSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { archivableRoutes } from './archivable-routes.js';

@Controller('v1/memory_stores')
export class MemoryStoresController extends rpcRoutes({
  ...archivableRoutes({
    create: S.createMemoryStore,
    createBody: CreateMemoryStoreRequestSchema,
    list: S.listMemoryStores,
    get: S.getMemoryStore,
    update: S.updateMemoryStore,
    updateBody: UpdateMemoryStoreRequestSchema,
    archive: S.archiveMemoryStore,
    delete: S.deleteMemoryStore,
  }),
}) {}
