import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';

export interface AgentryClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A user token from `POST /api/auth/login`, sent as `Authorization: Bearer`. */
  token?: string;
  /** An API key, sent as `x-api-key`. */
  apiKey?: string;
  /** The namespace to act in (`x-agentry-namespace`); the caller's own when absent. */
  namespace?: string;
  fetch?: typeof globalThis.fetch;
}

/** A typed client of every operation in the committed OpenAPI document (`/v1`, `/api` and the extensions). */
export type AgentryClient = Client<paths>;

/** The headers that authenticate a request as the options say. */
export function authHeaders(
  options: Omit<AgentryClientOptions, 'baseUrl' | 'fetch'>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  if (options.namespace) headers['x-agentry-namespace'] = options.namespace;
  return headers;
}

export function createAgentryClient(options: AgentryClientOptions): AgentryClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: authHeaders(options),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
