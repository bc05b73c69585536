import { z } from 'zod';
import { pageSchema } from '../common/paging.js';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import {
  CreateReplayBatchRequestSchema,
  CreateReplayRequestSchema,
  ListReplaysParamsSchema,
  ReplayBatchSchema,
  ReplaySchema,
} from './replays.js';

const Scoped = { v: V1, actor: ActorSchema };
const ById = z.object({ ...Scoped, id: z.string().min(1) });

/** Request/reply subjects of session replays; the scheduler records and drives them. */
export const ReplaySubjects = {
  /** Replays session `id`: unknown session, agent or version → NOT_FOUND; a turn running → CONFLICT. */
  start: rpcSubject(
    'scheduler.replay.start',
    z.object({ ...Scoped, id: z.string().min(1), body: CreateReplayRequestSchema }),
    ReplaySchema,
  ),
  get: rpcSubject('scheduler.replay.get', ById, ReplaySchema),
  list: rpcSubject(
    'scheduler.replay.list',
    z.object({ ...Scoped, query: ListReplaysParamsSchema }),
    pageSchema(ReplaySchema),
  ),
  /** Replays the last `body.last` sessions of agent `id` that ended idle. */
  startBatch: rpcSubject(
    'scheduler.replay_batch.start',
    z.object({ ...Scoped, id: z.string().min(1), body: CreateReplayBatchRequestSchema }),
    ReplayBatchSchema,
  ),
  getBatch: rpcSubject('scheduler.replay_batch.get', ById, ReplayBatchSchema),
} as const;
