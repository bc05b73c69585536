import { AppError, invalidRequest, type RpcSubject } from '@agentry/contracts';
import { isDatabaseUnavailable } from '@agentry/db';
import type { z } from 'zod';
import type { Logger } from '../logging/logger.js';
import { platformMetrics, secondsSince } from '../metrics/instruments.js';
import { toErrorBody, type RpcEnvelope } from './rpc-envelope.js';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/** Catalog subjects answered by `@RpcHandler` methods, by wire-independent subject name. */
const routes = new Map<string, AnySubject>();

export function registerRpcRoute(subject: AnySubject): void {
  routes.set(subject.subject, subject);
}

export function rpcRouteOf(channel: string): AnySubject | undefined {
  return routes.get(channel);
}

/**
 * Answers one request of `route` in the reply envelope: the payload parsed against the subject's schema
 * (a bad one is a typed INVALID_REQUEST naming each field, before `call` runs), then `call`'s value or
 * its error. Expected errors log at warn, others at error; the handler's duration is recorded.
 */
export async function answerRpc(
  route: AnySubject,
  payload: unknown,
  call: (request: unknown) => Promise<unknown>,
  wireSubject: string,
  logger: Logger,
): Promise<RpcEnvelope<unknown>> {
  const started = performance.now();
  let outcome = 'ok';
  try {
    const parsed = route.request.safeParse(payload);
    if (!parsed.success) throw invalidRequest(parsed.error, { subject: route.subject });
    const data = await call(parsed.data);
    return { ok: true, data: data === undefined ? null : data };
  } catch (error) {
    outcome = error instanceof AppError ? 'error' : 'crash';
    logRpcFailure(logger, wireSubject, error);
    return { ok: false, error: toErrorBody(error) };
  } finally {
    recordRpcDuration(wireSubject, started, outcome);
  }
}

export function logRpcFailure(logger: Logger, subject: string | undefined, error: unknown): void {
  if (error instanceof AppError) {
    logger.warn({ subject, code: error.code, err: error.message }, 'rpc request failed');
  } else if (isDatabaseUnavailable(error)) {
    logger.warn({ subject, err: (error as Error).message }, 'rpc request failed: database unavailable');
  } else {
    logger.error({ subject, err: error }, 'rpc handler crashed');
  }
}

export function recordRpcDuration(subject: string | undefined, started: number, outcome: string): void {
  const labels = { 'messaging.destination.name': stripPrefix(subject), outcome };
  platformMetrics().rpcHandlerDuration.record(secondsSince(started), labels);
}

const SERVICE_SUBJECT =
  /^(?:[a-zA-Z0-9_-]+\.)?((?:control|dataplane|hands|scheduler|worker|gateway)\.[a-z0-9_.-]+)$/;

/** Subjects as the catalog names them: an installation's prefix (`staging.`) would only split the series. */
function stripPrefix(subject: string | undefined): string {
  if (!subject) return 'unknown';
  return SERVICE_SUBJECT.exec(subject)?.[1] ?? 'other';
}
