import type { ModelPort, ModelRequest, ModelStreamEvent } from '@agentry/harness';
import { platformMetrics, secondsSince, startChildSpan, streamInSpan } from '@agentry/platform';

/** `provider/model` ids name their provider; bare `claude-*` goes to Anthropic; the rest is the id itself. */
function modelProvider(modelId: string): string {
  const id = modelId.trim();
  if (id.includes('/')) return id.slice(0, id.indexOf('/'));
  if (id.startsWith('claude-')) return 'anthropic';
  return id.startsWith('scripted') ? 'scripted' : 'unknown';
}

/**
 * A model port that reports each call as a GenAI client span (`chat <model>`, OpenTelemetry GenAI
 * semantic conventions: model, provider, token usage, finish reason; never prompt or completion content)
 * and records call latency and token usage.
 */
export class InstrumentedModel implements ModelPort {
  constructor(private readonly inner: ModelPort) {}

  get id(): string {
    return this.inner.id;
  }

  get contextWindow(): number {
    return this.inner.contextWindow;
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const provider = modelProvider(this.inner.id);
    const labels = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': this.inner.id,
    };
    const span = startChildSpan(`chat ${this.inner.id}`, 'client', {
      ...labels,
      'gen_ai.system': provider,
      ...(request.maxTokens !== undefined ? { 'gen_ai.request.max_tokens': request.maxTokens } : {}),
      ...(request.temperature !== undefined ? { 'gen_ai.request.temperature': request.temperature } : {}),
    });
    const started = performance.now();
    let errorType: string | undefined;
    try {
      for await (const event of streamInSpan(span, this.inner.stream(request, signal))) {
        if (event.type === 'done') {
          span.setAttributes({
            'gen_ai.response.finish_reasons': [event.stopReason],
            'gen_ai.usage.input_tokens': event.usage.inputTokens,
            'gen_ai.usage.output_tokens': event.usage.outputTokens,
          });
          const tokens = platformMetrics().modelTokens;
          tokens.record(event.usage.inputTokens, { ...labels, 'gen_ai.token.type': 'input' });
          tokens.record(event.usage.outputTokens, { ...labels, 'gen_ai.token.type': 'output' });
        }
        yield event;
      }
    } catch (error) {
      errorType = (error as { code?: string }).code ?? 'error';
      throw error;
    } finally {
      platformMetrics().modelDuration.record(secondsSince(started), {
        ...labels,
        ...(errorType ? { 'error.type': errorType } : {}),
      });
      span.end();
    }
  }
}
