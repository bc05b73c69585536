import type { RouteEntry } from '../route-entry.js';

/** Probes, metrics and this documentation: public, outside both API surfaces. */
export const PLATFORM_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/docs',
    operationId: 'docs_html',
    summary: 'The interactive API reference',
    auth: 'public',
  },
  {
    method: 'get',
    path: '/docs/openapi.json',
    operationId: 'docs_json',
    summary: 'This OpenAPI document',
    auth: 'public',
  },
  { method: 'get', path: '/healthz', operationId: 'health_live', summary: 'Liveness probe', auth: 'public' },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics_scrape',
    summary: 'Prometheus metrics',
    auth: 'public',
  },
  { method: 'get', path: '/readyz', operationId: 'health_ready', summary: 'Readiness probe', auth: 'public' },
];
