import type { HarnessTool } from '../tool.js';
import { errorOutcome, textOutcome } from '../tool-executor.js';
import { parseToolInput } from '../tool-input.js';
import { createWebFetchTool, type WebFetchOptions } from '../builtin/web-fetch.tool.js';
import { agentToolSchema, WebFetchInputSchema, WebSearchInputSchema } from './agent-toolset.schemas.js';

/** `web_fetch` under its CMA schema: the egress-guarded fetcher of the built-in tools. */
export function createAgentWebFetchTool(options: WebFetchOptions = {}): HarnessTool {
  const fetcher = createWebFetchTool(options);
  return {
    ...agentToolSchema('web_fetch'),
    toolset: 'builtin',
    execute: (input, context) =>
      fetcher.execute({ url: parseToolInput('web_fetch', WebFetchInputSchema, input).url }, context),
  };
}

export interface WebSearchOptions {
  /** The search API: called as `GET {url}?q=…&format=json&count=N`. Unset: every call is a clear tool error. */
  url?: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxResults?: number;
}

interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Reads the result shapes of common search APIs: SearXNG (`results[]`) and Brave (`web.results[]`). */
function hitsOf(body: unknown): SearchHit[] {
  const root = (body ?? {}) as { results?: unknown; web?: { results?: unknown } };
  const list = Array.isArray(root.results)
    ? root.results
    : Array.isArray(root.web?.results)
      ? root.web.results
      : [];
  return list.flatMap((raw) => {
    const r = (raw ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof r[key] === 'string' ? r[key] : '');
    const url = text('url') || text('link');
    return url
      ? [{ title: text('title'), url, snippet: text('content') || text('snippet') || text('description') }]
      : [];
  });
}

/** `web_search` through the search API the installation configures. */
export function createAgentWebSearchTool(options: WebSearchOptions = {}): HarnessTool {
  const doFetch = options.fetch ?? fetch;
  const maxResults = options.maxResults ?? 8;
  return {
    ...agentToolSchema('web_search'),
    toolset: 'builtin',
    async execute(input, { signal }) {
      const { query } = parseToolInput('web_search', WebSearchInputSchema, input);
      if (query.trim() === '') return errorOutcome('web_search: query must not be empty', 'invalid_request');
      if (!options.url)
        return errorOutcome(
          'web_search: no search provider is configured on this installation (AGENTRY_WEB_SEARCH_URL)',
          'unavailable',
        );
      const url = new URL(options.url);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('count', String(maxResults));
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
      let response: Response;
      try {
        response = await doFetch(url, {
          headers: {
            accept: 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          signal: AbortSignal.any([signal, timeout]),
        });
      } catch (err) {
        if (timeout.aborted)
          return errorOutcome('web_search: the search provider did not answer in time', 'timeout');
        return errorOutcome(
          `web_search: the search provider is unreachable: ${err instanceof Error ? err.message : String(err)}`,
          'unavailable',
        );
      }
      if (!response.ok)
        return errorOutcome(`web_search: the search provider answered HTTP ${response.status}`, 'http_error');
      const hits = hitsOf(await response.json().catch(() => null)).slice(0, maxResults);
      if (hits.length === 0) return textOutcome(`No results for "${query}".`);
      return textOutcome(
        hits.map((h, i) => `${i + 1}. ${h.title}\n   ${h.url}\n   ${h.snippet}`.trimEnd()).join('\n\n'),
      );
    },
  };
}
