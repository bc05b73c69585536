import { AppError } from '@agentry/contracts';
import type { ChatMessage, ModelPort, ModelRequest, ModelStreamEvent } from '@agentry/harness';
import type { BudgetAdmission, CallEstimate } from './budget-admission.service.js';
import type { UsageOwner } from './usage-ledger.repository.js';
import type { TurnUsage } from './turn-usage.js';

/**
 * A model port that asks the budgets before every call (the agent loop's, compaction's, the memory
 * flush's, sub-agents': they all share the harness's port) and settles each call with its real usage.
 * A refused call throws BUDGET_EXCEEDED before anything is sent; the refusal is kept for the turn's end.
 */
export class BudgetedModel implements ModelPort {
  /** The last refusal, with the estimate that was refused. */
  refused: { message: string; scope: string; estimate: CallEstimate } | undefined;

  constructor(
    private readonly inner: ModelPort,
    private readonly admission: BudgetAdmission,
    private readonly owner: UsageOwner,
    readonly usage: TurnUsage,
    /** The paying session had no budget when the turn started (see `BudgetAdmission.reserve`). */
    private readonly unbudgeted = false,
  ) {}

  get id(): string {
    return this.inner.id;
  }

  get contextWindow(): number {
    return this.inner.contextWindow;
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const estimate: CallEstimate = {
      model: this.inner.id,
      input_tokens: estimateInputTokens(request),
      output_tokens: request.maxTokens ?? this.admission.outputReserveTokens,
    };
    let reservation;
    try {
      reservation = await this.admission.reserve(this.owner, estimate, { unbudgeted: this.unbudgeted });
    } catch (error) {
      if (AppError.is(error, 'BUDGET_EXCEEDED'))
        this.refused = { message: error.message, scope: refusedScope(error), estimate };
      throw error;
    }
    let settled = false;
    try {
      // Under a cap the reserved output is also the most the model may write.
      const capped = reservation.capped && request.maxTokens === undefined;
      const sent = capped ? { ...request, maxTokens: estimate.output_tokens } : request;
      for await (const event of this.inner.stream(sent, signal)) {
        if (event.type === 'done') {
          const usage = {
            input_tokens: event.usage.inputTokens,
            output_tokens: event.usage.outputTokens,
            cache_read_input_tokens: event.usage.cacheReadInputTokens ?? 0,
            cache_creation_input_tokens: event.usage.cacheCreationInputTokens ?? 0,
          };
          const { costMicros, totals } = await this.admission.settle(reservation, usage);
          settled = true;
          this.usage.add(usage, costMicros, totals);
        }
        yield event;
      }
    } finally {
      // A call that failed or was cut off reported no usage: its reservation stops holding budget.
      if (!settled) await this.admission.release(reservation).catch(() => undefined);
    }
  }
}

/** Input size as the scripted model counts it (about four characters a token): text of every message and tool. */
function estimateInputTokens(request: ModelRequest): number {
  const chars =
    request.messages.reduce((n, m) => n + messageChars(m), 0) +
    (request.tools ?? []).reduce(
      (n, t) => n + t.name.length + t.description.length + JSON.stringify(t.inputSchema).length,
      0,
    );
  return Math.ceil(chars / 4);
}

function messageChars(message: ChatMessage): number {
  if (message.role === 'system') return message.content.length;
  const blocks = message.content.reduce((n, b) => n + (b.type === 'image' ? 1_000 : b.text.length), 0);
  const calls =
    message.role === 'assistant'
      ? (message.toolCalls ?? []).reduce((n, c) => n + JSON.stringify(c.input).length + c.name.length, 0)
      : 0;
  return blocks + calls;
}

/** Which budget refused the call: the session's unless the error names another. */
function refusedScope(error: AppError): string {
  const scope = error.details?.scope;
  return typeof scope === 'string' ? scope : 'session';
}
