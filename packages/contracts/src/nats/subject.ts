import { z } from 'zod';

/** One request/reply subject: the request it accepts and the reply it returns. */
export interface RpcSubject<Req extends z.ZodType, Res extends z.ZodType> {
  readonly subject: string;
  readonly request: Req;
  readonly response: Res;
  /** How spans and metrics name it when the subject embeds an id (one label per worker, not per start). */
  readonly name?: string;
  /**
   * A read with no effect: a caller whose request goes unanswered for a moment may send it again to another
   * replica (each replica also answers it on its own subject, see `replicaSubject`), and takes the first reply.
   */
  readonly idempotent?: boolean;
  /**
   * Sent as the caller built it, checked only where it is answered (the same typed 400 comes back): for a hot
   * subject whose requests are built by the platform's own typed code, never from a client's input, so a
   * second parse on the caller's side would only add its cost to every call.
   */
  readonly checkedAtHandler?: boolean;
}

export function rpcSubject<Req extends z.ZodType, Res extends z.ZodType>(
  subject: string,
  request: Req,
  response: Res,
  name?: string,
  options: { idempotent?: boolean; checkedAtHandler?: boolean } = {},
): RpcSubject<Req, Res> {
  return {
    subject,
    request,
    response,
    ...(name ? { name } : {}),
    ...(options.idempotent ? { idempotent: true } : {}),
    ...(options.checkedAtHandler ? { checkedAtHandler: true } : {}),
  };
}

/** Pub/sub: each replica of `service` says here, every half second, that it is alive and answering. */
export function replicaBeatSubject(service: string): string {
  return `replicas.${service}`;
}

/** Where one replica answers an idempotent subject on its own, beside the queue group all replicas share. */
export function replicaSubject(subject: string, replicaId: string): string {
  return `${subject}.@${replicaId}`;
}

export type RpcRequest<S> = S extends RpcSubject<infer Req, z.ZodType> ? z.input<Req> : never;
export type RpcParsedRequest<S> = S extends RpcSubject<infer Req, z.ZodType> ? z.output<Req> : never;
export type RpcResponse<S> = S extends RpcSubject<z.ZodType, infer Res> ? z.output<Res> : never;

/** Payloads carry a schema version so old and new replicas can share a subject during a rollout. */
export const V1 = z.literal(1).default(1);

/**
 * Pub/sub subjects (no reply). `evt` carries committed events only; `delta` carries stream previews;
 * `access.changed` tells every gateway to drop cached actors whose access may have narrowed.
 */
export const PubSubjects = {
  accessChanged: 'access.changed',
  /** A webhook endpoint was created or enabled: whatever a replica knows of who has none is out of date. */
  webhooksChanged: 'webhooks.changed',
  sessionEvents: (sessionId: string) => `evt.${sessionId}`,
  /** Every change of a multi-agent run, as the whole run. */
  multiagentRun: (runId: string) => `marun.${runId}`,
  sessionDeltas: (sessionId: string) => `delta.${sessionId}`,
  sessionInterrupt: (sessionId: string) => `interrupt.${sessionId}`,
  environmentWork: (environmentId: string) => `work.${environmentId}`,
  handsExec: (pool: string) => `hands.exec.${pool}`,
} as const;
