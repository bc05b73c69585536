import { z } from 'zod';

/** An environment variable holding JSON that must match `schema`; unset is `fallback`. */
export function jsonEnv<T extends z.ZodType>(schema: T, fallback: z.infer<T>) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): z.infer<T> => {
      if (raw === undefined || raw.trim() === '') return fallback;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: `${issue.path.join('.') || '(root)'}: ${issue.message}` });
        return z.NEVER;
      }
      return parsed.data;
    });
}
