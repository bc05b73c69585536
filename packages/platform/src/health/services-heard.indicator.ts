import type { RpcClient } from '../nats/rpc-client.js';
import type { HealthIndicator } from './health-check.js';

/**
 * Ready once a replica of each service this one routes requests to has been heard from, so a client that
 * waits for `/readyz` can use the API at once. Latched: a later loss is answered per request (a typed 503)
 * rather than by taking this service out of rotation, which would spread one service's outage to every route.
 */
export function servicesHeardFrom(rpc: RpcClient, services: readonly string[]): HealthIndicator {
  const heard = new Set<string>();
  const listen = () => {
    for (const service of services) if (!heard.has(service) && rpc.heardFrom(service)) heard.add(service);
  };
  // Start listening for their beats now, not at the first probe.
  listen();
  return {
    name: 'services',
    check: () => {
      listen();
      const missing = services.filter((service) => !heard.has(service));
      return missing.length
        ? Promise.reject(new Error(`not heard from yet: ${missing.join(', ')}`))
        : Promise.resolve();
    },
  };
}
