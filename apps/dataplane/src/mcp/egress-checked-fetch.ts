import { guarded, type EgressGuard, type McpFetch } from '@agentry/harness';

const MAX_REDIRECTS = 5;

/**
 * The fetch of every request to an agent's MCP server: the same egress rule as `web_fetch` applies to each
 * URL the transport asks for (the first one, the SSE endpoint a server announces) and to every hop of a
 * redirect. Redirects are followed by hand: the platform's fetch would follow them unchecked, so a public
 * server could bounce the call to a metadata or private address. Credentials never follow a redirect to
 * another origin. Each connection is dialled through the guard's dispatcher, to the address it admitted.
 */
export function egressCheckedFetch(guard: EgressGuard, doFetch: typeof fetch = fetch): McpFetch {
  return async (url, init) => {
    let target = new URL(url);
    let request: RequestInit = { ...init, redirect: 'manual' };
    for (let hop = 0; ; hop++) {
      const refusal = await guard.refusal(target);
      // A plain error: the MCP connection reports it as its own failure, naming the server.
      if (refusal) throw new Error(`refused by the egress policy: ${refusal}`);
      const response = await doFetch(target, guarded(guard, request));
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      if (hop >= MAX_REDIRECTS) throw new Error(`redirected more than ${MAX_REDIRECTS} times`);
      await response.body?.cancel();
      const next = new URL(location, target);
      request = followRedirect(request, response.status, next.origin === target.origin);
      target = next;
    }
  };
}

/** The request of the next hop, as fetch would make it: 303 (and 301/302 after a POST) become a GET. */
function followRedirect(request: RequestInit, status: number, sameOrigin: boolean): RequestInit {
  const headers = new Headers(request.headers);
  let next: RequestInit = { ...request };
  const method = (request.method ?? 'GET').toUpperCase();
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    next = { ...next, method: 'GET', body: null };
    headers.delete('content-type');
    headers.delete('content-length');
  }
  if (!sameOrigin) {
    headers.delete('authorization');
    headers.delete('cookie');
  }
  return { ...next, headers };
}
