import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { ListMemoryVersionsParamsSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { ViewQuerySchema } from './memory-view-query.js';

@Controller('v1/memory_stores/:storeId/memory_versions')
export class MemoryVersionsController extends rpcRoutes({
  list: { route: 'GET', subject: S.listMemoryVersions, query: ListMemoryVersionsParamsSchema },
  get: { route: 'GET :id', subject: S.getMemoryVersion, query: ViewQuerySchema },
  redact: { route: 'POST :id/redact', subject: S.redactMemoryVersion },
}) {}
