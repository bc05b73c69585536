import { z } from 'zod';

/** List prices of one model in USD per million tokens. */
const ModelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_read: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

export const PriceOverridesSchema = z.record(z.string().min(1), ModelPriceSchema);

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
