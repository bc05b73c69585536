import type { RpcParsedRequest, RpcSubject } from '@agentry/contracts';
import type { z } from 'zod';
import { RpcHandler } from './rpc-handler.decorator.js';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/** One handler that hands the parsed request of its subject on (see {@link RpcForwarders}). */
interface RpcForward<T> {
  readonly subject: AnySubject;
  readonly call: (handler: T, request: never) => unknown;
}

/** A subject and where its parsed request goes; the compiler checks that the callee takes that request. */
export function forward<T, S extends AnySubject>(
  subject: S,
  call: (handler: T, request: RpcParsedRequest<S>) => unknown,
): RpcForward<T> {
  return { subject, call };
}

/**
 * Handlers that only pass their request on to a service, declared as one table instead of one decorated
 * method each: every entry becomes a method of that name, registered exactly as `@RpcHandler` registers one.
 */
export function RpcForwarders<T>(routes: Record<string, RpcForward<T>>) {
  return (target: abstract new (...args: never[]) => T): void => {
    for (const [method, route] of Object.entries(routes)) {
      const descriptor: TypedPropertyDescriptor<(request: unknown) => unknown> = {
        value(this: T, request: unknown) {
          return route.call(this, request as never);
        },
        writable: true,
        configurable: true,
      };
      RpcHandler(route.subject)(target.prototype as object, method, descriptor);
      Object.defineProperty(target.prototype, method, descriptor);
    }
  };
}
