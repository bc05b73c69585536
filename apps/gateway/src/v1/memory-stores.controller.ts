import { Controller } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateMemoryStoreRequestSchema,
  UpdateMemoryStoreRequestSchema,
} from '@agentry/contracts';
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
