import type { Actor, RpcSubject } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import type { z } from 'zod';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/** The standard requests of a catalog: what each carries beside the actor, and how it reaches the service. */
interface StandardRequest {
  actor: Actor;
  /** The item's id, read from the request field the catalog names (`id` by default). */
  id: unknown;
  body: unknown;
  query: unknown;
}
/** The service's arguments after the actor (and the parent id of a nested catalog). */
type Arguments = (req: StandardRequest) => unknown[];

const withBody: Arguments = (req) => [req.body];
const withId: Arguments = (req) => [req.id];
const withIdAndBody: Arguments = (req) => [req.id, req.body];
const withQuery: Arguments = (req) => [req.query];

const STANDARD_CALLS = {
  create: withBody,
  add: withBody,
  upload: withBody,
  get: withId,
  download: withId,
  archive: withId,
  restore: withId,
  delete: withId,
  revoke: withId,
  remove: withId,
  update: withIdAndBody,
  list: withQuery,
} as const satisfies Record<string, Arguments>;

type StandardMethod = keyof typeof STANDARD_CALLS;

/**
 * Registers the standard handlers of a catalog on a handler class: each listed service method answers its
 * subject, called as `(actor, body)`, `(actor, id)`, `(actor, id, body)` or `(actor, query)` by its name
 * (create/add/upload; get/download/archive/restore/delete/revoke/remove; update; list). `field` names the
 * class's service property; a nested catalog names the request field of its `parent` (e.g. `vaultId`), passed
 * right after the actor, the field that names one `item` where it is not `id`, and the service's method `names` where they
 * are not the verbs (`{ list: 'listVersions' }`). Subjects that take anything else keep an ordinary
 * `@RpcHandler` method.
 */
export function CatalogHandlers<F extends string>(
  field: F,
  subjects: Partial<Record<StandardMethod, AnySubject>>,
  options: { parent?: string; item?: string; names?: Partial<Record<StandardMethod, string>> } = {},
) {
  return (target: abstract new (...args: never[]) => { readonly [K in F]: object }): void => {
    for (const [method, subject] of Object.entries(subjects) as Array<[StandardMethod, AnySubject]>) {
      const argumentsOf = STANDARD_CALLS[method];
      const serviceMethod = options.names?.[method] ?? method;
      const key = `${field}.${serviceMethod}`;
      const descriptor: TypedPropertyDescriptor<(req: unknown) => unknown> = {
        value(this: Record<F, Record<string, (...args: unknown[]) => unknown>>, req: unknown) {
          const request = req as StandardRequest & Record<string, unknown>;
          const parent = options.parent ? [request[options.parent]] : [];
          const item = options.item ? { ...request, id: request[options.item] } : request;
          return this[field][serviceMethod]!(request.actor, ...parent, ...argumentsOf(item));
        },
        writable: true,
        configurable: true,
      };
      Object.defineProperty(target.prototype, key, descriptor);
      RpcHandler(subject)(target.prototype as object, key, descriptor);
    }
  };
}
