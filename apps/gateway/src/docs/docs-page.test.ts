import { describe, expect, it } from 'vitest';
import { renderDocsPage } from './docs-page.js';
import type { OpenApiDocument } from './openapi-builder.js';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Agentry <API>', version: '0.1.0', description: '' },
  paths: {
    '/api/agents/{id}': {
      get: {
        operationId: 'apiAgents_get',
        summary: 'Get an agent',
        tags: ['api/agents'],
        security: [{ bearer: [] }],
      },
    },
    '/api/auth/login': { post: { operationId: 'login_login', tags: ['api/auth'], security: [] } },
  },
  components: { schemas: {}, securitySchemes: {} },
};

describe('docs page', () => {
  it('loads the reference from this gateway only, and escapes text', () => {
    const html = renderDocsPage(document);
    expect(html).toContain('<title>Agentry &lt;API&gt; reference</title>');
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) expect(source).toMatch(/^\/docs\//);
  });

  it('lists every operation by tag for a reader without scripts, marking public ones', () => {
    const html = renderDocsPage(document);
    const fallback = /<noscript>([\s\S]*)<\/noscript>/.exec(html)?.[1] ?? '';
    expect(fallback).toContain('<h2>api/agents</h2>');
    expect(fallback).toMatch(/GET<\/code> <code>\/api\/agents\/\{id\}<\/code> — Get an agent<\/li>/);
    expect(fallback).toMatch(/POST<\/code> <code>\/api\/auth\/login<\/code> <em>public<\/em>/);
  });
});
