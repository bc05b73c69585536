import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError, fromMicros, toMicros } from '@agentry/contracts';
import { CLOCK, platformMetrics, type Clock } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { PriceTable, type TokenCounts } from './price-table.js';
import { periodStart, quotaLimitsFor, type QuotaLimit } from './tenant-quotas.js';
import {
  UsageLedgerRepository,
  type LedgerAmounts,
  type SpendPeriods,
  type SpendSnapshot,
  type UsageOwner,
} from './usage-ledger.repository.js';

/** What a model call is expected to use at most: the input as sent plus the output it may produce. */
export interface CallEstimate {
  model: string;
  input_tokens: number;
  output_tokens: number;
}

export interface Reservation {
  id: string;
  owner: UsageOwner;
  model: string;
  /** A budget or quota applies: the call must not write more output than it reserved. */
  capped: boolean;
  /** A reservation row holds the estimate until the call settles or releases it. */
  held: boolean;
}

/** Why a call or new work was refused; kept on the session's stop reason so new input can be judged alike. */
export interface BudgetRefusal {
  scope: 'session' | 'tenant';
  message: string;
}

/**
 * Admission control of model calls (DESIGN.md §6.6): every call reserves its estimated list cost and
 * tokens against the session's budget and the tenant's quotas before it runs, and settles with its real
 * usage after. A call that would pass a cap is refused with BUDGET_EXCEEDED, which ends the turn with
 * `budget_reached`.
 */
@Injectable()
export class BudgetAdmission {
  readonly prices: PriceTable;

  constructor(
    private readonly ledger: UsageLedgerRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.prices = new PriceTable(config.AGENTRY_MODEL_PRICES);
  }

  /** Output tokens a call is assumed to produce when its request does not cap them. */
  get outputReserveTokens(): number {
    return this.config.AGENTRY_BUDGET_OUTPUT_RESERVE_TOKENS;
  }

  /**
   * Reserves the call's estimate; throws BUDGET_EXCEEDED (with the refusal in `details`) when a cap would be
   * passed. `unbudgeted`: the paying session had no budget when its turn started, and a session created
   * without one never gets one (`budget_create_only`); without tenant quotas nothing can be judged against
   * the reservation, so none is written and the settlement alone records the call.
   */
  async reserve(
    owner: UsageOwner,
    estimate: CallEstimate,
    { unbudgeted = false }: { unbudgeted?: boolean } = {},
  ): Promise<Reservation> {
    const id = randomUUID();
    if (unbudgeted && !this.quotasConfigured)
      return { id, owner, model: estimate.model, capped: false, held: false };
    const amounts = this.amounts(estimate.model, estimate);
    // Most calls have no cap to be judged against: one statement instead of a locked transaction.
    if (
      !this.quotasConfigured &&
      (await this.ledger.reserveUnlessBudgeted(owner, id, estimate.model, amounts))
    )
      return { id, owner, model: estimate.model, capped: false, held: true };
    let capped = false;
    const refusal = await this.ledger.reserve(
      owner,
      id,
      estimate.model,
      amounts,
      this.quotaPeriods(),
      (spend) => {
        capped = spend.sessionBudget !== null || this.quotasOf(owner.tenantId, spend).length > 0;
        return this.judge(owner, spend, estimate);
      },
    );
    if (refusal) {
      platformMetrics().budgetRejections.add(1, { scope: refusal.scope });
      throw new AppError('BUDGET_EXCEEDED', refusal.message, {
        retryable: false,
        details: { scope: refusal.scope },
      });
    }
    return { id, owner, model: estimate.model, capped, held: true };
  }

  /**
   * Closes the reservation with the call's real usage, counted on the session's totals in the same
   * statement; returns the call's list cost and the totals of the session (or thread) it ran in.
   */
  async settle(
    reservation: Reservation,
    usage: TokenCounts,
  ): Promise<{ costMicros: number; totals: Record<string, number> | null }> {
    const amounts = this.amounts(reservation.model, usage);
    const totals = await this.ledger.settle(reservation.owner, reservation.id, reservation.model, amounts);
    return { costMicros: amounts.listCostMicros, totals };
  }

  async release(reservation: Reservation): Promise<void> {
    if (!reservation.held) return;
    await this.ledger.release(reservation.owner, reservation.id, reservation.model);
  }

  /**
   * Whether new work (a user message) may enter, judged against the calls caps refused last: this
   * session's (its budget or the tenant's quotas) and the tenant's latest in the period (its quotas only),
   * as they stand now. A raised or removed budget, a raised quota or a new period lets work in again;
   * a cap nothing has hit yet is left to the reservation of the next call.
   */
  async refusalOfNewWork(owner: UsageOwner): Promise<BudgetRefusal | null> {
    const refused = await this.ledger.lastRefusals(owner, this.refusalsSince());
    if (!refused.session && !refused.tenant) return null;
    const spend = await this.ledger.spend(owner.tenantId, owner.sessionId, this.quotaPeriods());
    return (
      (refused.session ? this.judge(owner, spend, refused.session) : null) ??
      (refused.tenant ? this.judgeTenant(owner.tenantId, spend, refused.tenant) : null)
    );
  }

  /**
   * The earliest refusal of another session of the tenant that still counts for new work: the month's
   * (tenant quotas reset with the period). This session's refusals count whenever they happened.
   */
  refusalsSince(): Date {
    return periods(this.clock.now()).monthStart;
  }

  private judge(owner: UsageOwner, spend: SpendSnapshot, estimate: CallEstimate): BudgetRefusal | null {
    return (
      this.judgeSession(owner.sessionId, spend, estimate) ?? this.judgeTenant(owner.tenantId, spend, estimate)
    );
  }

  private judgeSession(
    sessionId: string,
    spend: SpendSnapshot,
    estimate: CallEstimate,
  ): BudgetRefusal | null {
    const amount = spend.sessionBudget?.max_list_cost?.amount;
    if (amount === undefined) return null;
    const cap = toMicros(amount);
    const cost = this.prices.costMicros(estimate.model, estimate);
    if (spend.sessionCostMicros + cost <= cap) return null;
    return {
      scope: 'session',
      message:
        `The session's budget of ${amount} USD is reached: ${fromMicros(spend.sessionCostMicros)} USD is spent and the next ` +
        `model call may cost up to ${fromMicros(cost)} USD at list price. Raise or remove the budget ` +
        `(POST /v1/sessions/${sessionId} with a higher budget.max_list_cost, or budget: null) to continue.`,
    };
  }

  private judgeTenant(tenantId: string, spend: SpendSnapshot, estimate: CallEstimate): BudgetRefusal | null {
    const limits = this.quotasOf(tenantId, spend);
    for (const limit of limits) {
      const { used, next } = this.usedAgainst(limit, spend, estimate);
      if (used + next <= limit.limit) continue;
      const show = (n: number) => (limit.unit === 'tokens' ? `${n} tokens` : `${fromMicros(n)} USD`);
      const resets = limit.period === 'daily' ? 'at 00:00 UTC' : 'on the first day of the next month (UTC)';
      return {
        scope: 'tenant',
        message:
          `The tenant's ${limit.period} quota of ${show(limit.limit)} is reached: ${show(used)} used this ` +
          `${limit.period === 'daily' ? 'day' : 'month'}, and the next model call may use up to ${show(next)}. ` +
          `New work is refused until the quota resets ${resets} or an operator raises it (AGENTRY_TENANT_QUOTAS).`,
      };
    }
    return null;
  }

  private usedAgainst(
    limit: QuotaLimit,
    spend: SpendSnapshot,
    estimate: CallEstimate,
  ): { used: number; next: number } {
    if (limit.unit === 'tokens') {
      return {
        used: limit.period === 'daily' ? spend.dayTokens : spend.monthTokens,
        next: estimate.input_tokens + estimate.output_tokens,
      };
    }
    return {
      used: limit.period === 'daily' ? spend.dayCostMicros : spend.monthCostMicros,
      next: this.prices.costMicros(estimate.model, estimate),
    };
  }

  private get quotasConfigured(): boolean {
    return Object.keys(this.config.AGENTRY_TENANT_QUOTAS).length > 0;
  }

  /** The periods quotas sum over; none when no quota is configured, so a tenant's rows are not read. */
  private quotaPeriods(): SpendPeriods {
    if (!this.quotasConfigured) return { dayStart: 'infinity', monthStart: 'infinity' };
    return periods(this.clock.now());
  }

  private quotasOf(tenantId: string, spend: SpendSnapshot): QuotaLimit[] {
    return quotaLimitsFor(this.config.AGENTRY_TENANT_QUOTAS, { id: tenantId, slug: spend.tenantSlug ?? '' });
  }

  private amounts(model: string, usage: TokenCounts): LedgerAmounts {
    return {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheReadTokens: usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
      listCostMicros: this.prices.costMicros(model, usage),
    };
  }
}

function periods(now: Date): { dayStart: Date; monthStart: Date } {
  return { dayStart: periodStart('daily', now), monthStart: periodStart('monthly', now) };
}
