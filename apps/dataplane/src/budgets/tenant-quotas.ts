import { toMicros } from '@agentry/contracts';
import { z } from 'zod';

const LimitSchema = z.strictObject({
  /** Input + output + cache tokens of every model call in the period. */
  tokens: z.number().int().positive().optional(),
  /** List cost of every model call in the period, USD as a decimal string. */
  list_cost: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, 'list_cost must be a decimal USD amount such as "25.00"')
    .optional(),
});

const TenantQuotaSchema = z.strictObject({ daily: LimitSchema.optional(), monthly: LimitSchema.optional() });

/** `AGENTRY_TENANT_QUOTAS`: tenant id or slug → quota; `*` applies to every tenant not named. */
export const TenantQuotasSchema = z.record(z.string().min(1), TenantQuotaSchema);
export type TenantQuotas = z.infer<typeof TenantQuotasSchema>;

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
