import { NamespaceInfoSchema } from '@agentry/contracts';
import type { RouteEntry } from '../route-entry.js';

export const API_NAMESPACES_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/namespaces',
    operationId: 'namespaces_list',
    summary: 'List namespaces',
    reply: NamespaceInfoSchema,
    replyList: true,
  },
];
