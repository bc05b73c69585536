import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordObserved } from '../secrets/secret-registry.js';

export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  /** Empty for the root span of a trace. */
  parentSpanId: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** String and integer attributes, as strings. */
  attributes: Record<string, string>;
}

type OtlpAttribute = { key: string; value: { stringValue?: string; intValue?: string | number } };
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind?: number;
  attributes?: OtlpAttribute[];
}

/** An OTLP/HTTP (JSON) trace receiver on 127.0.0.1, recording which service sent which span. */
export class FakeOtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Names of the metrics pushed to `/v1/metrics`, by service. */
  readonly metricNames = new Map<string, Set<string>>();
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeOtlpReceiver> {
    const holder: { receiver?: FakeOtlpReceiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        // Traces are scanned for secrets like logs and responses (a no-op outside an e2e run).
        recordObserved(`otlp ${request.url ?? ''}`, body);
        if (request.url === '/v1/traces') holder.receiver?.record(body);
        if (request.url === '/v1/metrics') holder.receiver?.recordMetrics(body);
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

  /** Settings that make a launched platform export its traces here, promptly. */
  get exportEnv(): Record<string, string> {
    return { OTEL_EXPORTER_OTLP_ENDPOINT: this.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200' };
  }

  services(): Set<string> {
    return new Set(this.spans.map((s) => s.service));
  }

  /** Every span received so far that belongs to the trace `traceId`. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  private record(body: string): void {
    try {
      const payload = JSON.parse(body) as {
        resourceSpans?: Array<{
          resource?: { attributes?: OtlpAttribute[] };
          scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
        }>;
      };
      for (const resourceSpans of payload.resourceSpans ?? []) {
        const service =
          resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) this.spans.push(toReceivedSpan(service, span));
        }
      }
    } catch {
      // a protobuf or malformed body is ignored: the test then sees no spans and fails clearly
    }
  }

  private recordMetrics(body: string): void {
    try {
      const payload = JSON.parse(body) as {
        resourceMetrics?: Array<{
          resource?: { attributes?: OtlpAttribute[] };
          scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }>;
        }>;
      };
      for (const resourceMetrics of payload.resourceMetrics ?? []) {
        const service =
          resourceMetrics.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ??
          '?';
        const names = this.metricNames.get(service) ?? new Set<string>();
        for (const scope of resourceMetrics.scopeMetrics ?? [])
          for (const metric of scope.metrics ?? []) names.add(metric.name);
        this.metricNames.set(service, names);
      }
    } catch {
      // see record()
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function toReceivedSpan(service: string, span: OtlpSpan): ReceivedSpan {
  const attributes: Record<string, string> = {};
  for (const { key, value } of span.attributes ?? []) {
    const text = value.stringValue ?? value.intValue;
    if (text !== undefined) attributes[key] = String(text);
  }
  return {
    service,
    name: span.name,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId ?? '',
    kind: span.kind ?? 0,
    attributes,
  };
}
