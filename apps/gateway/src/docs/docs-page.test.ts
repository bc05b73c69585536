import { describe, expect, it } from 'vitest';
import { renderDocsPage } from './docs-page.js';
import type { OpenApiDocument } from './openapi-builder.js';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Agentry API', version: '0.1.0', description: 'both <surfaces>' },
  paths: {
    '/api/agents/{id}': {
      get: { operationId: 'apiAgents_get', tags: ['api/agents'], security: [{ bearer: [] }] },
    },
    '/api/auth/login': { post: { operationId: 'login_login', tags: ['api/auth'], security: [] } },
  },
  components: { schemas: {}, securitySchemes: {} },
};

describe('docs page', () => {
  it('lists every operation under its tag, marks public ones and escapes text', () => {
    const html = renderDocsPage(document);
    expect(html).toContain('<h2>api/agents</h2>');
    expect(html).toMatch(/GET<\/code> <code>\/api\/agents\/\{id\}<\/code>/);
    expect(html).toMatch(
      /POST<\/code> <code>\/api\/auth\/login<\/code> <small>login_login<\/small> <em>public<\/em>/,
    );
    expect(html).toContain('both &lt;surfaces&gt;');
    expect(html).not.toContain('<script');
  });
});
