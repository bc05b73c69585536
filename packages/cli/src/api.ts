import { authHeaders, createAgentryClient, type AgentryClient } from '@agentry/sdk';
import type { CliConfig } from './config.js';
import { CliError, exitCodeOfStatus } from './errors.js';

/** A query parameter's value; an undefined one is left out of the URL. */
export type QueryValue = string | number | boolean | undefined;

/** The typed client for a config, and the headers the stream helper needs. */
export class Api {
  readonly client: AgentryClient;
  readonly headers: Record<string, string>;

  constructor(readonly config: CliConfig) {
    this.client = createAgentryClient({ baseUrl: config.url, ...credentials(config) });
    this.headers = authHeaders(credentials(config));
  }

  /** A plain call for routes chosen at run time (the generic resource commands). */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, QueryValue>,
  ): Promise<T> {
    const url = new URL(`${this.config.url.replace(/\/+$/, '')}${path}`);
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const response = await fetch(url, {
      method,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).catch((error: unknown) => {
      throw new CliError(`cannot reach ${this.config.url}: ${(error as Error).message}`);
    });
    const text = await response.text();
    const parsed: unknown = text ? safeJson(text) : undefined;
    if (!response.ok) throw failure(response.status, parsed);
    return parsed as T;
  }
}

/** The data of a typed call, or a CliError with the envelope's message and an exit code for the status. */
export function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): NonNullable<R['data']> {
  if (result.response.ok && result.data !== undefined) return result.data as NonNullable<R['data']>;
  throw failure(result.response.status, result.error);
}

function failure(status: number, body: unknown): CliError {
  const message = (body as { error?: { message?: string } } | undefined)?.error?.message;
  return new CliError(`${status}: ${message ?? JSON.stringify(body ?? null)}`, exitCodeOfStatus(status));
}

function credentials(config: CliConfig) {
  return {
    ...(config.token ? { token: config.token } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.namespace ? { namespace: config.namespace } : {}),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
