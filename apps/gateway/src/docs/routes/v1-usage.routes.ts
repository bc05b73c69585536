import { UsageQuerySchema, UsageReportSchema } from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_USAGE_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/usage',
    operationId: 'usage_get',
    summary: 'Usage and list cost, grouped and filtered (JSON or CSV)',
    query: UsageQuerySchema,
    reply: UsageReportSchema,
  },
];
