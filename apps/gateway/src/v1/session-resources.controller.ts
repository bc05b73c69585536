import { Controller } from '@nestjs/common';
import { SessionResourceSubjects as S } from '@agentry/contracts';
import {
  AddSessionResourceRequestSchema,
  ListParamsSchema,
  UpdateSessionResourceRequestSchema,
} from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';

/** CMA `client.beta.sessions.resources.*`: a repository's token can be rotated but is never returned. */
@Controller('v1/sessions/:sessionId/resources')
export class SessionResourcesController extends rpcRoutes({
  list: { route: 'GET', subject: S.list, query: ListParamsSchema },
  add: { route: 'POST', subject: S.add, body: AddSessionResourceRequestSchema },
  get: { route: 'GET :id', subject: S.get },
  update: { route: 'POST :id', subject: S.update, body: UpdateSessionResourceRequestSchema },
  delete: { route: 'DELETE :id', subject: S.delete },
}) {}
