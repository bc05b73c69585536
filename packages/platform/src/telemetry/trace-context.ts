import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';

/**
 * Trace context across hops that no auto-instrumentation covers (NATS, BullMQ). Everything goes through
 * the global OpenTelemetry API: without `startTelemetry` the tracer and propagator are no-ops, so these
 * helpers cost next to nothing and inject nothing.
 */
const TRACER_NAME = '@agentry/platform';

export function platformTracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** The active context as a propagation carrier (W3C `traceparent`/`tracestate`); empty when nothing is traced. */
export function traceCarrier(from: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return carrier;
}

/** The remote parent carried by `carrier`, or the root context (a new trace) when it carries none. */
export function contextFromCarrier(carrier: Record<string, string> | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, carrier ?? {});
}

/**
 * Runs `work` as the active span `name` under `parent`; a thrown error marks the span ERROR and is
 * rethrown unchanged. The span ends when `work` settles.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  parent: Context,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return platformTracer().startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markSpanFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Status ERROR with the error's code and message (AppError messages are safe for clients, so for traces too). */
export function markSpanFailed(span: Span, error: unknown, code?: string): void {
  const errorCode = code ?? codeOf(error);
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'error';
  if (error instanceof Error) span.recordException(error);
  span.setAttribute('error.type', errorCode);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'Error';
}
