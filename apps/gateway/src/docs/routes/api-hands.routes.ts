import { HandsStatusSchema } from '@agentry/contracts';
import type { RouteEntry } from '../route-entry.js';

export const API_HANDS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/hands/status',
    operationId: 'apiHands_status',
    summary: 'Hands status',
    reply: HandsStatusSchema,
  },
];
