import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as an OpenAPI 3.1 schema (JSON Schema 2020-12): with `io: 'input'` what a client may
 * send, with `'output'` what the server answers (defaults applied, so such fields are always there).
 * Local references (`#`, `#/$defs/x`) would point at the document root once embedded, so the schema's
 * definitions move into `components.schemas` under `name`, and recursive schemas become components too.
 */
export function toOpenApiSchema(
  schema: z.ZodType,
  name: string,
  components: Record<string, JsonSchema>,
  io: 'input' | 'output' = 'input',
): JsonSchema {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    });
  } catch {
    // A schema zod cannot express (e.g. a custom refinement over a transform): accept any JSON.
    return {};
  }
  const { $schema: _ignored, $defs, ...root } = json;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  const selfRef = JSON.stringify(root).includes('"$ref":"#"');
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.$ref = refTarget(value, name);
      else out[key] = rewrite(value);
    }
    return out;
  };
  for (const [key, def] of Object.entries(defs)) components[`${name}_${key}`] = rewrite(def) as JsonSchema;
  const body = rewrite(root) as JsonSchema;
  if (!selfRef) return body;
  components[name] = body;
  return { $ref: `#/components/schemas/${name}` };
}

function refTarget(ref: string, name: string): string {
  if (ref === '#') return `#/components/schemas/${name}`;
  const def = /^#\/\$defs\/(.+)$/.exec(ref);
  return def ? `#/components/schemas/${name}_${def[1]}` : ref;
}
