import { context, SpanKind, trace, type Attributes, type Span } from '@opentelemetry/api';
import { markSpanFailed, platformTracer } from './trace-context.js';

export type SpanKindName = 'internal' | 'client';

/** A span started as a child of the active context; the caller ends it. */
export function startChildSpan(name: string, kind: SpanKindName, attributes: Attributes): Span {
  return platformTracer().startSpan(name, {
    kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    attributes,
  });
}

/**
 * Iterates `source` with `span` active during each step, so work done while producing an item (an
 * HTTP call, a NATS request) is its child, even though the consumer runs between steps. A thrown error
 * marks the span failed; the caller still ends the span.
 */
export async function* streamInSpan<T>(span: Span, source: AsyncIterable<T>): AsyncGenerator<T> {
  const active = trace.setSpan(context.active(), span);
  const iterator = source[Symbol.asyncIterator]();
  try {
    while (true) {
      const step = await context.with(active, () => iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } catch (error) {
    markSpanFailed(span, error);
    throw error;
  } finally {
    await context.with(active, async () => iterator.return?.());
  }
}

/** Runs `work` with `span` active; a thrown error marks it failed and is rethrown. The caller ends it. */
export async function withSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(context.active(), span), work);
  } catch (error) {
    markSpanFailed(span, error);
    throw error;
  }
}

export type { Span };
