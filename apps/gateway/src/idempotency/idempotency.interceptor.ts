import { createHash } from 'node:crypto';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, type Actor } from '@agentry/contracts';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import { IdempotencyStore } from './idempotency-store.js';
import type { RequestWithIdempotency } from './request-idempotency.decorator.js';

const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

// Where `@HttpCode()` keeps its status (not exported by @nestjs/common's public entry).
const HTTP_CODE_METADATA = '__httpCode__';

type Request = RequestWithIdempotency & {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  actor?: Actor;
};
type Reply = { header(name: string, value: string): unknown };

/**
 * `Idempotency-Key` on POST: the first request runs and its response is stored; a repeat with the same
 * body gets that response without running again; a repeat with another body, or while the first is
 * still running, gets 409. Keys are per tenant and per caller.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.headers[IDEMPOTENCY_HEADER];
    // Public routes (login) have no tenant to scope a key to.
    if (request.method !== 'POST' || key === undefined || !request.actor) return next.handle();
    if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
      throw new AppError('INVALID_REQUEST', 'Idempotency-Key: send one key of 1 to 255 characters');
    }
    const actor = request.actor;
    const keyHash = sha256(key);
    const storeKey = `${actor.tenantId}:${keyHash}`;
    const fingerprint = sha256(
      stableJson({
        method: request.method,
        url: request.url,
        ns: actor.namespaceId,
        caller: actor.apiKeyId ?? actor.userId,
        body: request.body ?? null,
      }),
    );
    const begun = await this.store.begin(storeKey, fingerprint);
    const reply = context.switchToHttp().getResponse<Reply>();
    if (begun.state === 'replay') {
      reply.header(REPLAYED_HEADER, 'true');
      return of(begun.body);
    }
    // A failed attempt frees the key here, though its write may have committed behind the failure (a
    // lost reply): handlers pass the key on so the service that owns the data keeps it too.
    request.idempotency = { keyHash, requestHash: fingerprint };
    const statusCode =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
    return next.handle().pipe(
      mergeMap((body: unknown) =>
        from(this.store.complete(storeKey, fingerprint, statusCode, body).then(() => body)),
      ),
      catchError((error: unknown) =>
        from(this.store.release(storeKey, fingerprint, begun.claim)).pipe(
          mergeMap(() => throwError(() => error)),
        ),
      ),
    );
  }
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** JSON with object keys sorted, so the same body hashes the same whatever its key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
