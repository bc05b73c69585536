import { createServer } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { platformMetrics, resetPlatformMetrics } from './instruments.js';
import { metricsOnOwnPort, startMetrics, stopMetrics } from './start-metrics.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('metrics on their own port (AGENTRY_METRICS_PORT)', () => {
  afterAll(async () => {
    await stopMetrics();
    resetPlatformMetrics();
  });

  it('serves the Prometheus text on that port, labelled with the service name', async () => {
    const port = await freePort();
    startMetrics('agentry-worker', { AGENTRY_METRICS_PORT: String(port), AGENTRY_METRICS_HOST: '127.0.0.1' });
    resetPlatformMetrics();
    expect(metricsOnOwnPort()).toBe(true);
    platformMetrics().sseConnections.add(2);
    // The exporter's server starts listening in the background.
    const text = await vi.waitFor(
      async () => {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`);
        if (!response.ok) throw new Error(`metrics answered ${response.status}`);
        return response.text();
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(text).toMatch(/agentry_sse_connections\{[^}]*service_name="agentry-worker"[^}]*\} 2/);
  });
});
