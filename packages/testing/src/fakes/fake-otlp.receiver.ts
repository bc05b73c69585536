import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
}

/** An OTLP/HTTP (JSON) trace receiver on 127.0.0.1, recording which service sent which span. */
export class FakeOtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeOtlpReceiver> {
    const holder: { receiver?: FakeOtlpReceiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        if (request.url === '/v1/traces') holder.receiver?.record(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.receiver = new FakeOtlpReceiver(server);
    return holder.receiver;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  services(): Set<string> {
    return new Set(this.spans.map((s) => s.service));
  }

  private record(body: string): void {
    try {
      const payload = JSON.parse(body) as {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans?: Array<{ spans?: Array<{ name: string; traceId: string }> }>;
        }>;
      };
      for (const resourceSpans of payload.resourceSpans ?? []) {
        const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) this.spans.push({ service, name: span.name, traceId: span.traceId });
        }
      }
    } catch {
      // a protobuf or malformed body is ignored: the test then sees no spans and fails clearly
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
