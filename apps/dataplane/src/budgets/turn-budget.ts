import { fromMicros, toUsageSnapshot, type StopReason } from '@agentry/contracts';
import type { ModelPort } from '@agentry/harness';
import type { OutboundEvent } from '../sessions/turn-writer.js';
import type { BudgetAdmission } from './budget-admission.service.js';
import { BudgetedModel } from './budgeted-model.js';
import { TurnUsage } from './turn-usage.js';
import type { UsageOwner } from './usage-ledger.repository.js';

/** The session's budget and usage totals as the turn found them. */
export interface SessionAccount {
  budget: Record<string, unknown> | null;
  usage: Record<string, number>;
}

/**
 * One turn's side of the budgets: the metered model port, the list cost on each model span, and what the
 * turn writes when it ends (the `session.error` of a budget stop, then the `session.usage` snapshot).
 */
export class TurnBudget {
  readonly usage = new TurnUsage();
  private model: BudgetedModel | undefined;

  constructor(
    private readonly admission: BudgetAdmission,
    private readonly owner: UsageOwner,
    private readonly account: SessionAccount,
  ) {}

  /** Meters `model`: every call of this turn reserves before it and settles after it. */
  meter(model: ModelPort): ModelPort {
    this.model = new BudgetedModel(model, this.admission, this.owner, this.usage, this.unbudgeted);
    return this.model;
  }

  /** Meters a model called beside the harness (the outcome grader) against the same budgets and usage. */
  meterBeside(model: ModelPort): ModelPort {
    return new BudgetedModel(model, this.admission, this.owner, this.usage, this.unbudgeted);
  }

  private get unbudgeted(): boolean {
    return this.account.budget === null;
  }

  /** A persisted event with `list_cost` added to a model span's `model_usage`. */
  priced(event: OutboundEvent): OutboundEvent {
    if (event.type !== 'span.model_request_end') return event;
    const usage = event.model_usage as { input_tokens: number; output_tokens: number } | undefined;
    const model = this.model?.id;
    if (!usage || !model) return event;
    const amount = fromMicros(this.admission.prices.costMicros(model, usage));
    return { ...event, model_usage: { ...usage, list_cost: { amount, currency: 'USD' } } };
  }

  /** Events that close the turn before its idle status: a budget stop's error, then the usage snapshot. */
  closingEvents(stopReason: StopReason): OutboundEvent[] {
    const events: OutboundEvent[] = [];
    const refused = this.model?.refused;
    if (stopReason.type === 'budget_reached' && refused) {
      events.push({
        type: 'session.error',
        error: { type: 'billing_error', message: refused.message, retry_status: { type: 'terminal' } },
      });
    }
    if (!this.usage.empty) {
      const totals = this.usage.sessionTotals ?? this.addedToAccount();
      events.push({ type: 'session.usage', usage: toUsageSnapshot(totals), budget: this.account.budget });
    }
    return events;
  }

  private addedToAccount(): Record<string, number> {
    const totals = { ...this.account.usage };
    for (const [key, value] of Object.entries(this.usage.increments()))
      totals[key] = (totals[key] ?? 0) + value;
    return totals;
  }
}
