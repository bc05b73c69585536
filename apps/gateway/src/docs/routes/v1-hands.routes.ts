import { HandsStatusSchema } from '@agentry/contracts';
import type { RouteEntry } from '../route-entry.js';

export const V1_HANDS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/hands/status',
    operationId: 'hands_status',
    summary: 'Hands status (Agentry extension)',
    reply: HandsStatusSchema,
  },
];
