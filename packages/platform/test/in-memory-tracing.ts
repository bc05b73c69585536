import type { SpanKind } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';

export interface InMemoryTracing {
  /** Waits until an ended span with this name and kind matches `where`, and returns it. */
  span(name: string, kind: SpanKind, where?: (span: ReadableSpan) => boolean): Promise<ReadableSpan>;
  stop(): Promise<void>;
}

/**
 * The same SDK the services start (W3C propagator, AsyncLocalStorage context), exporting into memory
 * instead of OTLP, with no auto-instrumentation: the spans a test sees are the platform's own.
 */
export function startInMemoryTracing(): InMemoryTracing {
  process.env.OTEL_METRICS_EXPORTER = 'none';
  process.env.OTEL_LOGS_EXPORTER = 'none';
  const exporter = new InMemorySpanExporter();
  const sdk = new NodeSDK({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    instrumentations: [],
    autoDetectResources: false,
  });
  sdk.start();
  return {
    async span(name, kind, where = () => true) {
      const find = () =>
        exporter.getFinishedSpans().find((s) => s.name === name && s.kind === kind && where(s));
      await expect.poll(find, { timeout: 5_000 }).toBeDefined();
      return find()!;
    },
    stop: () => sdk.shutdown(),
  };
}

export const inTrace = (traceId: string) => (span: ReadableSpan) => span.spanContext().traceId === traceId;
