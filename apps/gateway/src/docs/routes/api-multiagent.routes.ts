import {
  ApiMultiagentRunReplySchema,
  ApiMultiagentRunRequestSchema,
  ApiMultiagentRunSchema,
} from '@agentry/contracts/api';
import type { RouteEntry } from '../route-entry.js';

export const API_MULTIAGENT_ROUTES: RouteEntry[] = [
  {
    method: 'post',
    path: '/api/multiagent/run',
    operationId: 'apiMultiagent_run',
    summary: 'Start a multi-agent run',
    body: ApiMultiagentRunRequestSchema,
    headers: ['prefer'],
    reply: ApiMultiagentRunReplySchema,
  },
  {
    method: 'get',
    path: '/api/multiagent/runs/{id}',
    operationId: 'apiMultiagent_get',
    summary: 'Get a run',
    reply: ApiMultiagentRunSchema,
  },
  {
    method: 'get',
    path: '/api/multiagent/runs/{id}/stream',
    operationId: 'apiMultiagent_stream',
    summary: "Stream a multi-agent run's events (SSE)",
  },
];
