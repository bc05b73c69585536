import type { ConnectionOptions } from '@nats-io/transport-node';
import { reconnectBackoff } from './reconnect-backoff.js';

/**
 * Options every NATS connection of the platform uses: reconnect forever with backoff (the client's
 * default gives up after 10 attempts, about 20 s, and a server transport that gives up answers no
 * request again), and ping often enough that a half-open connection is noticed in seconds.
 * Subscriptions are re-sent by the client on every reconnect. Requests do not capture a stack trace
 * up front for a timeout they will almost never have (two errors built per request otherwise, the
 * gateway's largest cost per request after the token check); a timeout still rejects with its error.
 */
export function natsConnectionOptions(servers: string | string[], name: string): ConnectionOptions {
  return {
    servers: typeof servers === 'string' ? servers.split(',') : servers,
    name,
    maxReconnectAttempts: -1,
    reconnectDelayHandler: reconnectBackoff(),
    pingInterval: 10_000,
    maxPingOut: 3,
    noAsyncTraces: true,
  };
}
