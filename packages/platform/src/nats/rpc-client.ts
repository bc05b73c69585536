import { context, SpanKind } from '@opentelemetry/api';
import {
  AppError,
  invalidRequest,
  requestIssues,
  type RpcRequest,
  type RpcResponse,
  type RpcSubject,
} from '@agentry/contracts';
import type { z } from 'zod';
import { inSpan } from '../telemetry/trace-context.js';
import { platformMetrics, secondsSince } from '../metrics/instruments.js';
import { natsSpanAttributes, traceHeaders } from './nats-trace.js';
import { unwrapEnvelope } from './rpc-envelope.js';
import { isOverMaxPayload } from './reply-within-payload.js';
import { hedgedRequest } from './hedged-request.js';
import { ReplicaRouter } from './replica-router.js';
import type { RpcTransport } from './prefixed-client-nats.js';
import type { Logger } from '../logging/logger.js';

/**
 * Typed request/reply over NATS: the subject's schemas check the request and the reply, the envelope carries
 * errors back.
 * Each request is a CLIENT span whose context rides in the message headers, so the handler's span joins
 * the caller's trace.
 */
export class RpcClient {
  /** Which replicas answer the idempotent subjects, and which stalled: see hedgedRequest. */
  private readonly replicas: ReplicaRouter;

  constructor(
    private readonly transport: RpcTransport,
    private readonly defaultTimeoutMs: number,
    private readonly logger?: Logger,
  ) {
    this.replicas = new ReplicaRouter(transport.watchReplicas);
  }

  async request<S extends RpcSubject<z.ZodType, z.ZodType>>(
    subject: S,
    payload: RpcRequest<S>,
    options: { timeoutMs?: number } = {},
  ): Promise<RpcResponse<S>> {
    const body = subject.checkedAtHandler ? payload : this.checked(subject, payload);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const name = subject.name ?? subject.subject;
    const span = { kind: SpanKind.CLIENT, attributes: natsSpanAttributes(name, 'send') };
    return inSpan(name, span, context.active(), async () => {
      let reply: unknown;
      const started = performance.now();
      const observe = (outcome: string) =>
        platformMetrics().natsRequestDuration.record(secondsSince(started), {
          'messaging.destination.name': name,
          outcome,
        });
      try {
        reply = subject.idempotent
          ? await hedgedRequest(this.transport, this.replicas, subject.subject, body, {
              timeoutMs,
              headers: traceHeaders(),
            })
          : await this.transport.request(subject.subject, body, { timeoutMs, headers: traceHeaders() });
        observe(isErrorEnvelope(reply) ? 'error' : 'ok');
      } catch (error) {
        // Refused before it was sent, and sending it again would not help.
        if (isOverMaxPayload(error)) {
          observe('error');
          throw new AppError(
            'PAYLOAD_TOO_LARGE',
            'The request is larger than a message between services may be',
          );
        }
        observe('unavailable');
        const service = subject.subject.split('.')[0];
        throw new AppError('UNAVAILABLE', `The ${service} service did not answer ${subject.subject}`, {
          cause: error,
          retryable: true,
        });
      }
      return this.parseReply(subject, unwrapEnvelope(reply, subject.subject));
    });
  }

  /** The caller's input, refused before it travels: the same typed 400 the handler would answer. */
  private checked<S extends RpcSubject<z.ZodType, z.ZodType>>(subject: S, payload: RpcRequest<S>): unknown {
    const checked = subject.request.safeParse(payload);
    if (!checked.success) throw invalidRequest(checked.error, { subject: subject.subject });
    return checked.data;
  }

  /**
   * A reply its schema does not describe is the answering service's defect: a BAD_REPLY (502) naming the
   * subject, logged with what is wrong (never the reply itself, which may hold secrets). A matching reply is
   * passed on as sent: parsing would drop fields a reply schema does not list yet, which callers still show.
   */
  private parseReply<S extends RpcSubject<z.ZodType, z.ZodType>>(subject: S, data: unknown): RpcResponse<S> {
    const parsed = subject.response.safeParse(data);
    if (parsed.success) return data as RpcResponse<S>;
    const issues = requestIssues(parsed.error);
    this.logger?.error({ subject: subject.subject, issues }, 'rpc reply does not match its schema');
    const service = subject.subject.split('.')[0];
    throw new AppError(
      'BAD_REPLY',
      `The ${service} service answered ${subject.subject} with a reply that does not match its schema`,
      {
        details: { subject: subject.subject, issues },
      },
    );
  }

  /** Whether a replica of `service` said lately that it is alive; the first ask starts listening for it. */
  heardFrom(service: string): boolean {
    return this.replicas.heardFrom(service);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

function isErrorEnvelope(reply: unknown): boolean {
  return typeof reply === 'object' && reply !== null && (reply as { ok?: unknown }).ok === false;
}
