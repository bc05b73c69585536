import type { HarnessTool } from '../tool.js';
import { errorOutcome, textOutcome } from '../tool-executor.js';
import { z } from 'zod';
import { parseToolInput, zodInput } from '../tool-input.js';
import { hostAllowed } from '../egress/allowed-hosts.js';
import { EgressGuard, guarded, type HostResolver } from '../egress/egress-guard.js';

const WebFetchInput = z.strictObject({ url: z.string().min(1), max_chars: z.int().min(1).optional() });

const MAX_REDIRECTS = 5;

export interface WebFetchOptions {
  /** Injected fetch (defaults to the global one). */
  fetch?: typeof fetch;
  /**
   * Let the tool reach loopback, private, link-local and metadata addresses. Off by default: a model
   * must not be able to read the platform's own services or the cloud's metadata endpoint.
   */
  allowPrivateNetworks?: boolean;
  /**
   * The session's environment has `limited` networking: only these hosts (`host`, `host:port`, `*.domain`,
   * as in `allowed_hosts`) may be fetched, on every redirect hop. Unset: any host the egress guard admits.
   */
  limitedTo?: readonly string[];
  /** Injected DNS resolution (defaults to the system resolver). */
  resolve?: HostResolver;
  timeoutMs?: number;
  /** Bytes read from the body at most. */
  maxBytes?: number;
  /** Default character cap of the returned text. */
  maxChars?: number;
}

/** Crude but dependency-free HTML to text: drops scripts/styles/tags, decodes common entities. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr)[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

export function createWebFetchTool(options: WebFetchOptions = {}): HarnessTool {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const guard = new EgressGuard({
    ...(options.allowPrivateNetworks !== undefined
      ? { allowPrivateNetworks: options.allowPrivateNetworks }
      : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  return {
    name: 'web_fetch',
    description: 'Fetch a URL over HTTP(S) and return its text (HTML is converted to plain text).',
    ...zodInput(WebFetchInput),
    idempotent: true,
    toolset: 'builtin',
    async execute(input, { signal }) {
      const args = parseToolInput('web_fetch', WebFetchInput, input);
      const url = args.url;
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
        return errorOutcome('Only http and https URLs can be fetched', 'invalid_url');
      const maxChars = args.max_chars ?? options.maxChars ?? 50_000;
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
      let response: Response;
      try {
        // Redirects are followed by hand so that every hop passes the egress guard, and each connection is
        // dialled through the guard's dispatcher, to the address it admitted.
        let target = new URL(url);
        for (let hop = 0; ; hop++) {
          const refusal = outsideLimit(target, options.limitedTo) ?? (await guard.refusal(target));
          if (refusal) return errorOutcome(refusal, 'egress_denied');
          response = await doFetch(
            target,
            guarded(guard, { signal: AbortSignal.any([signal, timeout]), redirect: 'manual' }),
          );
          const location = response.headers.get('location');
          if (response.status < 300 || response.status >= 400 || !location) break;
          if (hop >= MAX_REDIRECTS)
            return errorOutcome(
              `Fetching ${url} redirected more than ${MAX_REDIRECTS} times`,
              'too_many_redirects',
            );
          await response.body?.cancel();
          target = new URL(location, target);
        }
      } catch (err) {
        if (timeout.aborted) return errorOutcome(`Fetching ${url} timed out`, 'timeout');
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        if (cause?.code === 'EGRESS_DENIED')
          return errorOutcome(cause.message ?? 'Refused by the egress policy', 'egress_denied');
        throw err;
      }
      const body = await readCapped(response, maxBytes);
      const type = response.headers.get('content-type') ?? '';
      let text = type.includes('html') ? htmlToText(body.text) : body.text;
      const truncated = body.truncated || text.length > maxChars;
      text = text.slice(0, maxChars);
      const header = `HTTP ${response.status} ${type}${truncated ? ' (truncated)' : ''}\n\n`;
      return response.ok ? textOutcome(header + text) : errorOutcome(header + text, 'http_error');
    },
  };
}

/** Why a `limited` environment may not fetch `url`, or undefined when it may. */
function outsideLimit(url: URL, limitedTo: readonly string[] | undefined): string | undefined {
  if (!limitedTo) return undefined;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return hostAllowed(limitedTo, host, port)
    ? undefined
    : `${host}:${port} is not in this environment's allowed_hosts; fetching it is not allowed`;
}

async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  // Node's fetch types the body's chunks loosely; they are bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
  return { text, truncated };
}
