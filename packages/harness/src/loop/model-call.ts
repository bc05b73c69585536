import { AppError } from '@agentry/contracts';
import type { ChatMessage, ModelPort, ModelRequest, Usage } from '../model/model-port.js';
import type { EventFactory } from './event-factory.js';
import type { HarnessEvent, UsageTotals } from './harness-events.js';
import type { Clock, Logger } from './ports.js';

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

export interface ModelCallDeps {
  model: ModelPort;
  clock: Clock;
  logger: Logger;
  events: EventFactory;
  retries: number;
  backoffMs: number;
  /** Longest wait before a retry; a provider asking (retry-after) for longer is not retried. */
  maxDelayMs: number;
}

/** Ids the call's `agent.message` and `agent.thinking` events take, announced first by their previews. */
interface PreviewIds {
  message: string;
  thinking: string;
}

export type ModelCallResult =
  { ok: true; message: AssistantMessage; usage: Usage; ids: PreviewIds } | { ok: false; error: AppError };

/**
 * One model call with retries of retryable errors. Streams previews, emits the request spans, and gives every
 * tool call (and the text and thinking) the id of its future event so ids agree across previews, events and conversation.
 */
export async function* callModel(
  deps: ModelCallDeps,
  request: ModelRequest,
  usage: UsageTotals,
  signal: AbortSignal,
): AsyncGenerator<HarnessEvent, ModelCallResult> {
  for (let attempt = 0; ; attempt++) {
    const start = deps.events.make({ type: 'span.model_request_start', model: deps.model.id });
    yield start;
    const idMap = new Map<string, string>();
    const ids: PreviewIds = { message: deps.events.newId(), thinking: deps.events.newId() };
    try {
      let done: { message: AssistantMessage; usage: Usage } | undefined;
      const attemptRequest = { ...request, options: { ...request.options, attempt } };
      for await (const piece of deps.model.stream(attemptRequest, signal)) {
        if (signal.aborted) throw new AppError('ABORTED', 'The run was interrupted');
        if (piece.type === 'text_delta')
          yield { type: 'delta.text', event_id: ids.message, text: piece.text };
        else if (piece.type === 'thinking_delta')
          yield { type: 'delta.thinking', event_id: ids.thinking, text: piece.text };
        else if (piece.type === 'tool_call_start') idMap.set(piece.id, deps.events.newId());
        else if (piece.type === 'tool_call_delta') {
          yield {
            type: 'delta.tool_input',
            tool_use_id: mappedId(idMap, piece.id, deps.events),
            partial_json: piece.argumentsDelta,
          };
        } else if (piece.type === 'done') done = { message: piece.message, usage: piece.usage };
      }
      if (!done)
        throw new AppError('MODEL_REQUEST_FAILED', 'The model stream ended without a final message', {
          retryable: true,
        });
      addUsage(usage, done.usage);
      yield deps.events.make({
        type: 'span.model_request_end',
        model: deps.model.id,
        model_request_start_id: start.id,
        usage: toTotals(done.usage),
        is_error: false,
      });
      const toolCalls = done.message.toolCalls?.map((c) => ({
        ...c,
        id: mappedId(idMap, c.id, deps.events),
      }));
      const message: AssistantMessage = {
        role: 'assistant',
        content: done.message.content,
        ...(toolCalls?.length ? { toolCalls } : {}),
      };
      return { ok: true, message, usage: done.usage, ids };
    } catch (err) {
      const error = signal.aborted ? new AppError('ABORTED', 'The run was interrupted') : asAppError(err);
      const zero = { inputTokens: 0, outputTokens: 0 };
      yield deps.events.make({
        type: 'span.model_request_end',
        model: deps.model.id,
        model_request_start_id: start.id,
        usage: toTotals(zero),
        is_error: true,
      });
      const delayMs = retryDelayMs(error, attempt, deps);
      if (delayMs === undefined || signal.aborted) return { ok: false, error };
      deps.logger.warn('model request failed; retrying', { code: error.code, attempt, delayMs });
      yield deps.events.make({
        type: 'session.error',
        error: error.toBody(),
        retry_attempt: attempt + 1,
        retry_in_ms: delayMs,
      });
      try {
        await deps.clock.sleep(delayMs, signal);
      } catch {
        return { ok: false, error: new AppError('ABORTED', 'The run was interrupted') };
      }
    }
  }
}

/**
 * How long to wait before retry `attempt + 1`, or undefined when the error is final: not retryable, out of
 * retries, or the provider asks (retry-after) for a longer wait than the run holds its turn for.
 */
export function retryDelayMs(
  error: AppError,
  attempt: number,
  deps: Pick<ModelCallDeps, 'retries' | 'backoffMs' | 'maxDelayMs'>,
): number | undefined {
  if (!error.retryable || attempt >= deps.retries) return undefined;
  const retryAfterMs = error.details?.retryAfterMs;
  if (typeof retryAfterMs === 'number') return retryAfterMs <= deps.maxDelayMs ? retryAfterMs : undefined;
  return Math.min(deps.maxDelayMs, deps.backoffMs * 2 ** attempt);
}

function mappedId(map: Map<string, string>, modelId: string, events: EventFactory): string {
  let id = map.get(modelId);
  if (!id) {
    id = events.newId();
    map.set(modelId, id);
  }
  return id;
}

function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('MODEL_REQUEST_FAILED', err instanceof Error ? err.message : String(err), {
    cause: err,
  });
}

function toTotals(usage: Usage): UsageTotals {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
    cache_creation_input_tokens: usage.cacheCreationInputTokens ?? 0,
  };
}

function addUsage(total: UsageTotals, usage: Usage): void {
  total.input_tokens += usage.inputTokens;
  total.output_tokens += usage.outputTokens;
  total.cache_read_input_tokens += usage.cacheReadInputTokens ?? 0;
  total.cache_creation_input_tokens += usage.cacheCreationInputTokens ?? 0;
}
