import { createAgentryClient, type AgentryClient } from '@agentry/sdk';
import { useMemo } from 'react';
import { useAuth } from '../auth/auth-context';

/** An error answer of the API, with the message of its envelope. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A query parameter's value; an undefined or empty one is left out of the URL. */
type QueryValue = string | number | boolean | undefined;

export interface Api {
  client: AgentryClient;
  headers: Record<string, string>;
  call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, QueryValue>,
  ): Promise<T>;
}

export const baseUrl = (): string => window.location.origin;

/** The typed client and a plain call for paths chosen at run time, as the signed-in person. */
export function useApi(): Api {
  const { headers, signOut } = useAuth();
  return useMemo(() => {
    const client = createAgentryClient({ baseUrl: baseUrl() });
    client.use({ onRequest: ({ request }) => withHeaders(request, headers) });
    const call = async <T>(
      method: string,
      path: string,
      body?: unknown,
      query?: Record<string, QueryValue>,
    ) => {
      const url = new URL(path, baseUrl());
      for (const [key, value] of Object.entries(query ?? {}))
        if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
      const response = await fetch(url, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      if (response.status === 401) signOut();
      if (!response.ok) {
        const message = (parsed as { error?: { message?: string } } | undefined)?.error?.message;
        throw new ApiError(response.status, message ?? `request failed (${response.status})`);
      }
      return parsed as T;
    };
    return { client, headers, call };
  }, [headers, signOut]);
}

function withHeaders(request: Request, headers: Record<string, string>): Request {
  for (const [key, value] of Object.entries(headers)) request.headers.set(key, value);
  return request;
}
