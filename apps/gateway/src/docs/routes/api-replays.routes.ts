import { CreateReplayBatchRequestSchema, CreateReplayRequestSchema } from '@agentry/contracts';
import { ApiListReplaysParamsSchema } from '@agentry/contracts/api';
import type { RouteEntry } from '../route-entry.js';

export const API_REPLAYS_ROUTES: RouteEntry[] = [
  {
    method: 'post',
    path: '/api/sessions/{id}/replay',
    operationId: 'apiSessions_replay',
    summary: "Replay a session's user inputs against an agent version",
    status: 202,
    body: CreateReplayRequestSchema,
  },
  {
    method: 'get',
    path: '/api/replays',
    operationId: 'apiReplays_list',
    summary: 'List session replays',
    query: ApiListReplaysParamsSchema,
  },
  {
    method: 'get',
    path: '/api/replays/{id}',
    operationId: 'apiReplays_get',
    summary: 'Get a session replay and its comparison',
  },
  {
    method: 'post',
    path: '/api/agents/{id}/replays',
    operationId: 'apiAgents_replays',
    summary: "Replay an agent's last sessions against a version",
    status: 202,
    body: CreateReplayBatchRequestSchema,
  },
  {
    method: 'get',
    path: '/api/replay-batches/{id}',
    operationId: 'apiReplayBatches_get',
    summary: 'Get a replay batch, its replays and summary',
  },
];
