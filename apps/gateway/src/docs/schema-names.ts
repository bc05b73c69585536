import * as contracts from '@agentry/contracts';
import * as api from '@agentry/contracts/api';
import * as events from '@agentry/contracts/events';
import * as nats from '@agentry/contracts/nats';
import * as v1 from '@agentry/contracts/v1';
import * as replies from './routes/reply-schemas.js';
import type { z } from 'zod';

const isZod = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

/**
 * The contracts' (and the documented replies') names of their zod schemas (`AgentSchema` → `Agent`), and of the replies of their
 * NATS subjects (`ControlSubjects.listAgents.response` → `ListAgentsResponse`): components read as
 * the types a client knows.
 */
function contractNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const entries = Object.entries({ ...contracts, ...v1, ...api, ...nats, ...events, ...replies } as Record<
    string,
    unknown
  >).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, value] of entries)
    if (isZod(value) && name.endsWith('Schema') && !names.has(value)) names.set(value, name.slice(0, -6));
  for (const [, catalog] of entries) {
    if (isZod(catalog) || typeof catalog !== 'object' || catalog === null) continue;
    for (const [key, subject] of Object.entries(catalog as Record<string, unknown>)) {
      const response = (subject as { response?: unknown } | null)?.response;
      if (isZod(response) && !names.has(response))
        names.set(response, `${key.charAt(0).toUpperCase()}${key.slice(1)}Response`);
    }
  }
  return names;
}

export const SCHEMA_NAMES: ReadonlyMap<z.ZodType, string> = contractNames();
