/**
 * Whether a request failed because no subscriber listened on its subject when it reached the server
 * (NATS answers such a request at once with a "no responders" status). Such a request reached no one,
 * so sending it again can never make its handler run twice. The client's error is looked for along the
 * `cause` chain, since callers wrap it (RpcClient's UNAVAILABLE).
 */
export function isNoResponders(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1)
    if (e.name === 'NoResponders') return true;
  return false;
}
