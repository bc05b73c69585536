import { describe, expect, it } from 'vitest';
import { missingBody } from './route-bodies.js';
import { classify, loadOperations } from './route-catalog.js';
import { pathParams } from './route-params.js';

/** The authorization matrix's completeness guard, without starting anything: fails as a route lands unclassified. */
describe('route catalog', () => {
  const operations = loadOperations();

  it('classifies every operation of docs/openapi.json and knows what fills each path parameter', () => {
    const gaps = operations.flatMap((op) => {
      const access = classify(op);
      if (!access) return [`${op.label}: no rule in route-catalog.ts classifies it`];
      if (access === 'public') return [];
      const unknown = pathParams(op.path).filter((p) => !p.fixture);
      const body = access === 'worker' ? null : missingBody(op);
      return [
        ...unknown.map((p) => `${op.label}: nothing known fills {${p.name}}`),
        ...(body ? [`${op.label}: ${body}`] : []),
      ];
    });
    expect(gaps, gaps.join('\n')).toEqual([]);
  });

  it('classifies by convention, with the exceptions named', () => {
    const access = (label: string) => classify({ label });
    expect(access('GET /v1/memory_stores/{storeId}/memories')).toBe('read');
    expect(access('DELETE /v1/vaults/{id}')).toBe('write');
    expect(access('POST /api/deployments/webhook/{token}')).toBe('public');
    expect(access('GET /api/keys')).toBe('account');
    expect(access('PATCH /api/admin/users/{id}')).toBe('admin');
    expect(access('GET /v1/environments/{id}/work/poll')).toBe('worker');
    expect(access('POST /api/environments/{id}/work/{workId}/ack')).toBe('worker');
    expect(access('GET /v1/environments/{id}/work/stats')).toBe('read');
    expect(access('GET /v1/unheard_of')).toBeUndefined();
  });
});
