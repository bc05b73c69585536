import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { CreateDreamRequestSchema, ListDreamsParamsSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/dreams')
export class DreamsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createDream, body: CreateDreamRequestSchema },
  list: { route: 'GET', subject: S.listDreams, query: ListDreamsParamsSchema },
  get: { route: 'GET :id', subject: S.getDream },
  archive: { route: 'POST :id/archive', subject: S.archiveDream },
  cancel: { route: 'POST :id/cancel', subject: S.cancelDream },
}) {}
