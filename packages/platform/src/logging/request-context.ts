import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids that every log line inside a request, message or job carries. */
export interface RequestContext {
  requestId?: string;
  tenantId?: string;
  sessionId?: string;
  traceId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function currentContext(): RequestContext {
  return storage.getStore() ?? {};
}

/** Runs `fn` with `context` as the current one: every log line inside it carries these ids. */
export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Adds ids learnt partway (the tenant, once the caller is known) to the current context, if any. */
export function addToContext(fields: RequestContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, fields);
}

/**
 * The ids a request's payload names: most requests between services carry the tenant (alone or as the
 * acting caller's) and the session.
 */
export function contextOfPayload(payload: unknown): RequestContext {
  if (typeof payload !== 'object' || payload === null) return {};
  const { actor, sessionId } = payload as { actor?: { tenantId?: unknown }; sessionId?: unknown };
  const tenantId = (payload as { tenantId?: unknown }).tenantId ?? actor?.tenantId;
  return {
    ...(typeof tenantId === 'string' ? { tenantId } : {}),
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
  };
}
