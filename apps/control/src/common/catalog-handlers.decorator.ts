import type { Actor, RpcSubject } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import type { z } from 'zod';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/** The standard requests of a catalog: what each carries beside the actor, and how it reaches the service. */
interface StandardRequest {
  actor: Actor;
  id: string;
  body: unknown;
  query: unknown;
}
type Call = (
  service: Record<string, (...args: unknown[]) => unknown>,
  method: string,
  req: StandardRequest,
) => unknown;

const withBody: Call = (service, method, req) => service[method]!(req.actor, req.body);
const withId: Call = (service, method, req) => service[method]!(req.actor, req.id);
const withIdAndBody: Call = (service, method, req) => service[method]!(req.actor, req.id, req.body);
const withQuery: Call = (service, method, req) => service[method]!(req.actor, req.query);

const STANDARD_CALLS = {
  create: withBody,
  upload: withBody,
  get: withId,
  download: withId,
  archive: withId,
  restore: withId,
  delete: withId,
  revoke: withId,
  update: withIdAndBody,
  list: withQuery,
} as const satisfies Record<string, Call>;

type StandardMethod = keyof typeof STANDARD_CALLS;

/**
 * Registers the standard handlers of a catalog on a handler class: each listed service method answers its
 * subject, called as `(actor, body)`, `(actor, id)`, `(actor, id, body)` or `(actor, query)` by its name
 * (create/upload; get/download/archive/restore/delete/revoke; update; list). `field` names the class's
 * service property. Subjects that take anything else keep an ordinary `@RpcHandler` method on the class.
 */
export function CatalogHandlers<F extends string>(
  field: F,
  subjects: Partial<Record<StandardMethod, AnySubject>>,
) {
  return (target: abstract new (...args: never[]) => { readonly [K in F]: object }): void => {
    for (const [method, subject] of Object.entries(subjects) as Array<[StandardMethod, AnySubject]>) {
      const call = STANDARD_CALLS[method];
      const key = `${field}.${method}`;
      const descriptor: TypedPropertyDescriptor<(req: unknown) => unknown> = {
        value(this: Record<F, Record<string, (...args: unknown[]) => unknown>>, req: unknown) {
          return call(this[field], method, req as StandardRequest);
        },
        writable: true,
        configurable: true,
      };
      Object.defineProperty(target.prototype, key, descriptor);
      RpcHandler(subject)(target.prototype as object, key, descriptor);
    }
  };
}
