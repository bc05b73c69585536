import { AppError, ErrorBodySchema, type ErrorBody } from '@agentry/contracts';
import { isDatabaseUnavailable } from '@agentry/db';

/** What every NATS reply carries: a value, or the typed error envelope — never a thrown string. */
export type RpcEnvelope<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return error.toBody();
  if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE.toBody();
  return { code: 'INTERNAL', message: 'Internal error', retryable: false };
}

/** What a caller hears while Postgres is unreachable: a retryable outage, never an internal error. */
const DATABASE_UNAVAILABLE = new AppError('UNAVAILABLE', 'The database is unavailable; retry shortly', {
  retryable: true,
});

export function unwrapEnvelope<T>(reply: unknown, subject: string): T {
  const envelope = reply as RpcEnvelope<T> | undefined;
  if (envelope && envelope.ok === true) return envelope.data;
  if (envelope && envelope.ok === false) {
    const parsed = ErrorBodySchema.safeParse(envelope.error);
    if (parsed.success) throw AppError.fromBody(parsed.data);
  }
  throw new AppError('INTERNAL', `Malformed reply on ${subject}`);
}
