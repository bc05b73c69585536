import { ReplaySubjects } from '@agentry/contracts';
import {
  CreateReplayBatchRequestSchema,
  CreateReplayRequestSchema,
  ListReplaysParamsSchema,
  ReplayBatchSchema,
  ReplaySchema,
} from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_REPLAYS_ROUTES: RouteEntry[] = [
  {
    method: 'post',
    path: '/v1/sessions/{id}/replay',
    operationId: 'sessions_replay',
    summary: "Replay a session's user inputs against an agent version (Agentry extension)",
    status: 202,
    body: CreateReplayRequestSchema,
    reply: ReplaySchema,
  },
  {
    method: 'get',
    path: '/v1/replays',
    operationId: 'replays_list',
    summary: 'List session replays (Agentry extension)',
    query: ListReplaysParamsSchema,
    reply: ReplaySubjects.list.response,
  },
  {
    method: 'get',
    path: '/v1/replays/{id}',
    operationId: 'replays_retrieve',
    summary: 'Get a session replay and its comparison (Agentry extension)',
    reply: ReplaySchema,
  },
  {
    method: 'post',
    path: '/v1/agents/{id}/replays',
    operationId: 'agents_replays',
    summary: "Replay an agent's last sessions against a version (Agentry extension)",
    status: 202,
    body: CreateReplayBatchRequestSchema,
    reply: ReplayBatchSchema,
  },
  {
    method: 'get',
    path: '/v1/replay_batches/{id}',
    operationId: 'replayBatches_retrieve',
    summary: 'Get a replay batch, its replays and summary (Agentry extension)',
    reply: ReplayBatchSchema,
  },
];
