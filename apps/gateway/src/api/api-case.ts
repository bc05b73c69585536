/** `display_name` → `displayName`. */
export function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * A flat `/v1` resource in `/api` spelling: top-level keys camelCased, values untouched (so user data
 * such as `metadata` keys keeps its spelling).
 */
export function camelKeys<T extends object>(resource: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(resource).map(([key, value]) => [camelCase(key), value]));
}
