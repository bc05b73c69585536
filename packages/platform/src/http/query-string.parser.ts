import { parse } from 'node:querystring';

/**
 * Query strings as CMA clients send them: arrays repeat the key with brackets (`types[]=a&types[]=b`).
 * Bracketed keys arrive without the brackets and always as arrays, so every route sees `types: [...]`.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  const parsed = parse(raw) as Record<string, string | string[]>;
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const existing = query[name];
      const values = Array.isArray(value) ? value : [value];
      query[name] = isList(existing)
        ? [...existing, ...values]
        : existing === undefined
          ? values
          : [existing, ...values];
    } else {
      query[key] = value;
    }
  }
  return query;
}

const isList = (value: unknown): value is unknown[] => Array.isArray(value);
