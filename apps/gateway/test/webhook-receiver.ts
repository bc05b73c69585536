import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered. */
  status: number;
}

/**
 * A local HTTP receiver for webhook deliveries: records every request per path and answers each path's
 * programmed statuses in turn (then 200), so a test can make an endpoint fail a few times or for good.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private readonly plans = new Map<string, number[] | 'always-fail'>();
  private server: Server | undefined;
  private port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const status = this.nextStatus(path);
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        this.received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The path answers these statuses, one per request, then 200; `always-fail` answers 500 forever. */
  program(path: string, plan: number[] | 'always-fail'): void {
    this.plans.set(path, plan);
  }

  at(path: string): ReceivedDelivery[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private nextStatus(path: string): number {
    const plan = this.plans.get(path);
    if (plan === 'always-fail') return 500;
    return plan?.shift() ?? 200;
  }
}
