import { CMA_ERROR_TYPES } from '@agentry/contracts';
import { bodyFor } from './route-bodies.js';
import type { Operation } from './route-catalog.js';
import { fillPath, unfillable, type Fixtures } from './route-params.js';

/** A reply as the matrix looks at it; streams are closed as soon as their headers arrive. */
export interface Reply {
  status: number;
  body: unknown;
}

/** `ok`: 2xx. `public`: answered without credentials. `refused`: 401, 403 or 404. A number: that error. */
export type Expectation = number | 'ok' | 'public' | 'refused';

/** One operation called by one caller with one set of fixtures, and what it must answer. */
export interface Probe {
  op: Operation;
  who: string;
  headers: Record<string, string>;
  ids: Fixtures;
  expect: Expectation;
  variant?: string;
}

/** One HTTP call with a JSON or multipart body (a FormData), never waiting on an open stream. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers }, signal: AbortSignal.timeout(20_000) };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  if (response.headers.get('content-type')?.includes('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, body: null };
  }
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    return { status: response.status, body: text };
  }
}

/** The error envelope's shape as far as a refusal is checked; any field may be missing from a wrong reply. */
interface ErrorEnvelope {
  type?: unknown;
  error?: { type?: unknown; message?: unknown };
}

/** The typed error envelope with a message, as every refusal must be. */
function isTypedError(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { type, error } = body as ErrorEnvelope;
  return (
    type === 'error' &&
    typeof error?.type === 'string' &&
    (CMA_ERROR_TYPES as readonly string[]).includes(error.type) &&
    typeof error.message === 'string' &&
    error.message.length > 0
  );
}

/** What is wrong with a reply, or null when it is what was expected. */
export function problemWith(reply: Reply, expected: Expectation): string | null {
  const got = `${reply.status} ${(JSON.stringify(reply.body) ?? '').slice(0, 200)}`;
  if (expected === 'ok') return reply.status >= 200 && reply.status < 300 ? null : `expected 2xx, got ${got}`;
  if (expected === 'public') {
    const answered =
      reply.status !== 401 && reply.status < 500 && (reply.status < 400 || isTypedError(reply.body));
    return answered ? null : `expected an answer without credentials, got ${got}`;
  }
  const allowed = expected === 'refused' ? [401, 403, 404] : [expected];
  if (!allowed.includes(reply.status)) return `expected ${allowed.join(' or ')}, got ${got}`;
  return isTypedError(reply.body) ? null : `expected the typed error envelope with a message, got ${got}`;
}

/** Runs `task` over `items` a few at a time: fast, without flooding two shared cores. */
export async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size)
    results.push(...(await Promise.all(items.slice(i, i + size).map(task))));
  return results;
}

/** Deletes, archives and revocations go last, so a wrongly allowed one spoils no other probe. */
const destructive = (op: Operation) => op.method === 'DELETE' || /\/(archive|revoke)$/.test(op.path);

/** Sends every probe, a batch at a time; returns one line per probe that did not get its answer. */
export async function runProbes(baseUrl: string, probes: Probe[], batch = 8): Promise<string[]> {
  const failures: string[] = [];
  const ordered = [...probes].sort((a, b) => Number(destructive(a.op)) - Number(destructive(b.op)));
  await inBatches(ordered, batch, async (p) => {
    const where = `${p.op.label} as ${p.who}${p.variant ? ` (${p.variant})` : ''}`;
    const gap = unfillable(p.op.path, p.ids);
    if (gap) return void failures.push(`${where}: cannot fill the path: ${gap}`);
    const reply = await send(
      baseUrl,
      p.op.method,
      fillPath(p.op.path, p.ids),
      bodyFor(p.op, p.ids),
      p.headers,
    );
    const problem = problemWith(reply, p.expect);
    if (problem) failures.push(`${where}: ${problem}`);
  });
  return failures;
}
