import { Controller } from '@nestjs/common';
import { ReplaySubjects as S } from '@agentry/contracts';
import {
  CreateReplayBatchRequestSchema,
  CreateReplayRequestSchema,
  ListReplaysParamsSchema,
} from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';

/**
 * Agentry extension: a recorded session's user inputs replayed against another agent version, one
 * session at a time or an agent's last sessions as a batch. Both answer 202 and run in the background.
 */
@Controller('v1')
export class ReplaysController extends rpcRoutes({
  replay: {
    route: 'POST sessions/:id/replay',
    subject: S.start,
    body: CreateReplayRequestSchema,
    status: 202,
  },
  list: { route: 'GET replays', subject: S.list, query: ListReplaysParamsSchema },
  get: { route: 'GET replays/:id', subject: S.get },
  replayBatch: {
    route: 'POST agents/:id/replays',
    subject: S.startBatch,
    body: CreateReplayBatchRequestSchema,
    status: 202,
  },
  getBatch: { route: 'GET replay_batches/:id', subject: S.getBatch },
}) {}
