import { sample } from 'openapi-sampler';
import type { z } from 'zod';
import { SCHEMA_NAMES } from './schema-names.js';
import { toOpenApiSchema, type JsonSchema } from './zod-json-schema.js';

type Io = 'input' | 'output';

/**
 * Bodies and replies become components, one per zod schema and direction: a schema shared by several
 * routes (the agent body on create and update, the agent reply everywhere) is written once, under its
 * contracts name where it has one.
 */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<z.ZodType, Partial<Record<Io, string>>>();

  ref(schema: z.ZodType, fallbackName: string, io: Io): JsonSchema {
    const known = this.names.get(schema) ?? {};
    let name = known[io];
    if (!name) {
      name = this.freeName(SCHEMA_NAMES.get(schema) ?? fallbackName, io);
      this.names.set(schema, { ...known, [io]: name });
      const json = toOpenApiSchema(schema, name, this.schemas, io);
      if (json.$ref === undefined) this.schemas[name] = json;
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** A schema written in place (query strings become parameters, not components). */
  inline(schema: z.ZodType, name: string): JsonSchema {
    return toOpenApiSchema(schema, name, this.schemas, 'input');
  }

  /** A sample value of a schema, for the reference's examples. */
  example(schema: JsonSchema): unknown {
    try {
      return sample(schema, { skipReadOnly: false, skipNonRequired: false, quiet: true }, this.document());
    } catch {
      return undefined;
    }
  }

  sortedSchemas(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }

  private document(): JsonSchema {
    return { components: { schemas: this.schemas } };
  }

  private freeName(wanted: string, io: Io): string {
    if (!(wanted in this.schemas)) return wanted;
    const directed = `${wanted}${io === 'input' ? 'Input' : 'Output'}`;
    let name = directed;
    for (let n = 2; name in this.schemas; n += 1) name = `${directed}${n}`;
    return name;
  }
}
