import { toMicros } from '@agentry/contracts';
import type { TenantQuotas } from '../config/budget-settings.js';

export type QuotaPeriod = 'daily' | 'monthly';

/** One enforceable limit of a tenant, with the period it resets on (UTC day or month). */
export interface QuotaLimit {
  period: QuotaPeriod;
  unit: 'tokens' | 'list_cost_micros';
  limit: number;
}

/** The limits a tenant is held to, from its id first, then its slug, then `*`. */
export function quotaLimitsFor(quotas: TenantQuotas, tenant: { id: string; slug: string }): QuotaLimit[] {
  const quota = quotas[tenant.id] ?? quotas[tenant.slug] ?? quotas['*'];
  if (!quota) return [];
  const limits: QuotaLimit[] = [];
  for (const period of ['daily', 'monthly'] as const) {
    const limit = quota[period];
    if (limit?.tokens !== undefined) limits.push({ period, unit: 'tokens', limit: limit.tokens });
    if (limit?.list_cost !== undefined)
      limits.push({ period, unit: 'list_cost_micros', limit: toMicros(limit.list_cost) });
  }
  return limits;
}

/** Start of the UTC day or month `now` falls in: quotas reset there. */
export function periodStart(period: QuotaPeriod, now: Date): Date {
  return period === 'daily'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
