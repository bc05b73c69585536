import { replicaSubject } from '@agentry/contracts';
import type { MsgHdrs } from '@nats-io/transport-node';
import type { RpcTransport } from './prefixed-client-nats.js';
import type { ReplicaRouter } from './replica-router.js';

/** How long an attempt may go unanswered before the same request also goes to another replica. */
const HEDGE_AFTER_MS = 300;
/** Attempts of one request at most: a service that is slow everywhere gets at most this many copies. */
const MAX_ATTEMPTS = 3;

/**
 * An idempotent request that no single stalled replica can hold: it goes to a replica the router picks
 * (or the queue group while none is known); if no reply comes within HEDGE_AFTER_MS, that replica is
 * marked stalled and the request also goes to another, and so on up to MAX_ATTEMPTS within `timeoutMs`.
 * The first reply wins; a failed attempt is replaced at once while attempts remain.
 */
export function hedgedRequest(
  transport: RpcTransport,
  router: ReplicaRouter,
  subject: string,
  body: unknown,
  options: { timeoutMs: number; headers?: MsgHdrs },
): Promise<unknown> {
  const service = subject.split('.')[0] ?? subject;
  const deadline = performance.now() + options.timeoutMs;
  const tried = new Set<string>();
  let attempts = 0;
  let inFlight = 0;
  let settled = false;
  let lastError = new Error(`No reply to ${subject}`);
  let hedge: NodeJS.Timeout | undefined;
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(hedge);
      outcome();
    };
    const launch = () => {
      if (settled) return;
      const left = deadline - performance.now();
      if (attempts >= MAX_ATTEMPTS || left <= 0) {
        if (inFlight === 0) settle(() => reject(lastError));
        return;
      }
      attempts += 1;
      inFlight += 1;
      const target = router.pick(service, tried);
      if (target) tried.add(target);
      transport
        .request(target ? replicaSubject(subject, target) : subject, body, {
          timeoutMs: left,
          ...(options.headers ? { headers: options.headers } : {}),
          onReplyFrom: (replicaId) => {
            if (replicaId) router.answered(service, replicaId);
          },
        })
        .then(
          (reply) => settle(() => resolve(reply)),
          // The transport fails with an Error (a timeout, no responders, the replica's own error).
          (error: Error) => {
            inFlight -= 1;
            lastError = error;
            if (target && isNoResponders(error)) router.gone(service, target);
            if (inFlight === 0) {
              clearTimeout(hedge);
              launch();
            }
          },
        );
      clearTimeout(hedge);
      hedge = setTimeout(
        () => {
          if (target) router.stalled(service, target);
          launch();
        },
        Math.min(HEDGE_AFTER_MS, left),
      );
    };
    launch();
  });
}

function isNoResponders(error: unknown): boolean {
  const code: unknown = (error as { code?: unknown })?.code ?? '';
  const text = `${(error as Error)?.message ?? ''} ${String(code)}`;
  return /no responders|503/i.test(text);
}
