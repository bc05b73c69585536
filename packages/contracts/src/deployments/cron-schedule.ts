import { z } from 'zod';

// Each of the five POSIX fields: numbers, names, `*`, ranges, lists and steps; no L, W, # or ?.
const FIELD =
  /^(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?(,(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?)*$/;

/** Whether `expression` is a 5-field POSIX cron expression of the kind CMA deployments accept. */
export function isCronExpression(expression: string): boolean {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  return fields.every(
    (f) => FIELD.test(f) && !/[LW#?]/.test(f.replace(/[A-Za-z]{3}/g, (n) => n.toLowerCase())),
  );
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isIanaTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const CronScheduleParamsSchema = z.strictObject({
  type: z.literal('cron'),
  expression: z
    .string()
    .refine(
      isCronExpression,
      'expression must be a 5-field cron expression (L, W, # and ? are not supported)',
    ),
  timezone: z.string().refine(isIanaTimeZone, 'timezone must be an IANA time zone such as "Europe/Berlin"'),
});
export type CronScheduleParams = z.infer<typeof CronScheduleParamsSchema>;

export const CronScheduleSchema = z.object({
  type: z.literal('cron'),
  expression: z.string(),
  timezone: z.string(),
  last_run_at: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Up to 5 upcoming fire times; empty when the deployment is archived. */
  upcoming_runs_at: z.array(z.iso.datetime({ offset: true })).optional(),
});
