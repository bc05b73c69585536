import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import type { z } from 'zod';
import { assertStorableText } from './text-guard.js';

/** Parses with a schema; the error names the first offending field and changes nothing. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  assertStorableText(value, where);
  const parsed = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? issue.path.join('.') : where;
  const message =
    issue?.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue?.message;
  throw new AppError('INVALID_REQUEST', `${path}: ${message ?? 'invalid value'}`);
}

// Nest treats any decorator argument with a `transform` method as a pipe, and zod schemas have one,
// so the schema travels wrapped (under a key Nest does not read as its own options).
const bodyParam = createParamDecorator((data: { zod: z.ZodType }, ctx: ExecutionContext) =>
  parseOrThrow(data.zod, ctx.switchToHttp().getRequest<{ body: unknown }>().body, 'body'),
);
const queryParam = createParamDecorator((data: { zod: z.ZodType }, ctx: ExecutionContext) =>
  parseOrThrow(data.zod, ctx.switchToHttp().getRequest<{ query: unknown }>().query, 'query'),
);

/** The request body parsed against a zod schema. */
export const ZodBody = (schema: z.ZodType): ParameterDecorator => bodyParam({ zod: schema });

/** The query string parsed against a zod schema. */
export const ZodQuery = (schema: z.ZodType): ParameterDecorator => queryParam({ zod: schema });
