import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as api from './api.js';
import * as events from './events.js';
import * as contracts from './index.js';
import * as nats from './nats.js';
import * as v1 from './v1.js';

// The gateway generates its OpenAPI document from these schemas, so each must have a JSON Schema form.
describe('exported schemas', () => {
  it('all convert to JSON Schema, for requests and for responses', () => {
    const failures: string[] = [];
    let checked = 0;
    // Spread, so the unused-exports check (knip, nsExports) does not count this walk as a use of each name.
    for (const [name, value] of Object.entries({ ...contracts, ...v1, ...api, ...nats, ...events })) {
      if (!name.endsWith('Schema') || !(value instanceof z.ZodType)) continue;
      checked++;
      for (const io of ['input', 'output'] as const) {
        try {
          z.toJSONSchema(value, { io, unrepresentable: 'throw' });
        } catch (error) {
          failures.push(`${name} (${io}): ${(error as Error).message}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it('keep CMA limits in the generated schema', () => {
    const schema = z.toJSONSchema(contracts.CreateAgentRequestSchema, { io: 'input' }) as unknown as {
      properties: { name: { maxLength: number }; system: { anyOf: Array<{ maxLength?: number }> } };
      additionalProperties: boolean;
    };
    expect(schema.properties.name.maxLength).toBe(256);
    expect(schema.additionalProperties).toBe(false);
  });
});
