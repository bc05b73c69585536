import { Controller } from '@nestjs/common';
import { CheckpointSubjects as C, ControlSubjects as R, ControlSubjects as S } from '@agentry/contracts';
import {
  ForkSessionRequestSchema,
  ListCheckpointsParamsSchema,
  RollbackSessionRequestSchema,
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  UpdateSessionRequestSchema,
} from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { SessionsTokenRoute } from '../workers/worker-route.decorator.js';

@Controller('v1/sessions')
export class SessionsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createSession, body: CreateSessionRequestSchema },
  list: { route: 'GET', subject: R.listSessions, query: ListSessionsParamsSchema },
  get: { route: 'GET :id', subject: S.getSession, decorators: [SessionsTokenRoute()] },
  update: { route: 'POST :id', subject: R.updateSession, body: UpdateSessionRequestSchema },
  archive: { route: 'POST :id/archive', subject: R.archiveSession },
  delete: { route: 'DELETE :id', subject: R.deleteSession },
  // Agentry extension: turn boundaries kept as checkpoints, and going back to one.
  checkpoints: { route: 'GET :id/checkpoints', subject: C.list, query: ListCheckpointsParamsSchema },
  fork: { route: 'POST :id/fork', subject: S.forkSession, body: ForkSessionRequestSchema },
  rollback: { route: 'POST :id/rollback', subject: C.rollback, body: RollbackSessionRequestSchema },
}) {}
