import type { EgressGuard, McpFetch } from '@agentry/harness';

/**
 * The fetch of every request to an agent's MCP server: the same egress rule as `web_fetch` applies to each
 * URL the transport asks for (the first one, the SSE endpoint a server announces, any same-origin redirect).
 */
export function egressCheckedFetch(guard: EgressGuard): McpFetch {
  return async (url, init) => {
    const target = new URL(url);
    const refusal = await guard.refusal(target);
    // A plain error: the MCP connection reports it as its own failure, naming the server.
    if (refusal) throw new Error(`refused by the egress policy: ${refusal}`);
    return fetch(target, init);
  };
}
