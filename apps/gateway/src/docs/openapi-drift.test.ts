import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayOpenApi, renderOpenApi } from './gateway-openapi.js';
import { OPENAPI_FILE } from './openapi-file.js';

// OPENAPI_WRITE=1 regenerates the committed document instead of checking it.
const write = process.env.OPENAPI_WRITE === '1';

/** A JSON body: a reference to its component schema. */
interface JsonContent {
  'application/json': { schema: { $ref: string } };
}

/** What these tests read of an operation. */
interface Operation {
  requestBody: { content: JsonContent };
  responses: Record<string, { content: JsonContent }>;
  parameters: { name: string }[];
  security: unknown;
}

/** What these tests read of an object's component schema. */
interface ObjectSchema {
  required: string[];
  properties: Record<string, unknown>;
}

describe('docs/openapi.json', () => {
  it('matches what the controllers and zod contracts generate (regenerate with OPENAPI_WRITE=1)', () => {
    const generated = renderOpenApi();
    if (write) writeFileSync(OPENAPI_FILE, generated);
    expect(existsSync(OPENAPI_FILE), `${OPENAPI_FILE} is missing`).toBe(true);
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(
      JSON.parse(committed),
      'docs/openapi.json is stale: run OPENAPI_WRITE=1 npx vitest run apps/gateway/src/docs/openapi-drift.test.ts',
    ).toEqual(JSON.parse(generated));
    expect(committed).toBe(generated);
  });

  it('documents both surfaces, with bodies and queries taken from the zod schemas', () => {
    const { paths, components } = gatewayOpenApi();
    const operation = (path: string, method: string) => paths[path]?.[method] as unknown as Operation;
    const schemaOf = (content: JsonContent) =>
      components.schemas[
        content['application/json'].schema.$ref.split('/').pop()!
      ] as unknown as ObjectSchema;
    const createAgent = operation('/api/agents', 'post');
    expect(schemaOf(createAgent.requestBody.content).required).toContain('name');
    expect(schemaOf(createAgent.requestBody.content).properties).toHaveProperty('maxIters');
    expect(schemaOf(createAgent.responses['200']!.content).properties).toHaveProperty('archivedAt');
    // One component per zod schema: the agent reply of create and get is the same.
    expect(operation('/api/agents/{id}', 'get').responses['200']!.content).toEqual(
      createAgent.responses['200']!.content,
    );
    const createV1 = operation('/v1/agents', 'post');
    expect(schemaOf(createV1.requestBody.content).properties).toHaveProperty('mcp_servers');
    const listEvents = operation('/v1/sessions/{id}/events', 'get');
    expect(listEvents.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['id', 'limit', 'page', 'order']),
    );
    expect(paths['/api/environments/{id}/rotate-key']?.post).toBeDefined();
    expect(operation('/api/auth/login', 'post').security).toEqual([]);
    expect(operation('/api/agents/{id}', 'get').security).toEqual([{ bearer: [] }, { apiKey: [] }]);
  });

  it('leaves no reference dangling', () => {
    const document = gatewayOpenApi();
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(document.components.schemas, ref).toHaveProperty([ref]);
    expect(JSON.stringify(document)).not.toMatch(/"\$ref":"#(\/\$defs[^"]*)?"/);
  });
});
