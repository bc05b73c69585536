import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids that every log line inside a request, message or job carries. */
export interface RequestContext {
  requestId?: string;
  tenantId?: string;
  sessionId?: string;
  traceId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn);
}

export function currentContext(): RequestContext {
  return storage.getStore() ?? {};
}
