import {
  NatsContext,
  Server,
  type CustomTransportStrategy,
  type MessageHandler,
} from '@nestjs/microservices';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import { replicaBeatSubject, replicaSubject } from '@agentry/contracts';
import {
  connect,
  headers,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import type { Logger } from '../logging/logger.js';
import { markSpanFailed, platformTracer } from '../telemetry/trace-context.js';
import { contextOfPayload, runWithContext } from '../logging/request-context.js';
import { natsConnectionOptions } from './nats-connection-options.js';
import type { NatsConnections } from './nats-connections.js';
import { contextFromHeaders, natsSpanAttributes } from './nats-trace.js';
import { rpcRouteOf } from './rpc-answer.js';
import { REPLICA_BEAT_MS, REPLICA_HEADER } from './replica-router.js';
import { answerRequest, type ReplyPacket } from './rpc-reply.js';

export interface RpcServerOptions {
  servers?: string | string[];
  /** Queue group of every subject (a handler's `extras.queue` overrides it): replicas share the load. */
  queue?: string;
  name?: string;
  /**
   * This process among the service's replicas. Each reply names it, and the subjects marked idempotent are
   * also answered on this replica's own subject, so a caller can send such a request again elsewhere when
   * one replica stalls (see ReplicaRouter).
   */
  replicaId?: string;
}

const encoder = new TextEncoder();

/**
 * A Nest custom transport (the documented `Server` + `CustomTransportStrategy` extension point) over
 * nats.js, with every subscribed subject under an installation prefix. Handlers keep their catalog
 * subject (`control.agent.create`); only the wire subject carries the prefix, so two installations (or
 * two test runs) can share one NATS server without hearing each other.
 *
 * Every request takes one path (`answerRequest`): an `@RpcHandler` method's request is parsed against its
 * subject, its value or typed error goes back in the reply envelope, and a page is fitted to the server's
 * `max_payload` before the reply is built. A message without a reply subject is an event, handed to Nest.
 *
 * Each message is handled inside a SERVER span named after the catalog subject, whose parent is the trace
 * context in the message headers. The connection reconnects forever with backoff and re-subscribes.
 */
export class PrefixedServerNats extends Server implements CustomTransportStrategy {
  private connection?: NatsConnection;
  private readonly subjectSubscriptions: Subscription[] = [];
  private readonly linkName: string;
  /** Every reply names the replica that sent it (when it has a replica id). */
  private readonly replyHeaders: MsgHdrs | undefined;
  private beating: NodeJS.Timeout | undefined;

  /** `rpcLogger` hears every failed request (expected ones at warn). */
  constructor(
    private readonly serverOptions: RpcServerOptions,
    private readonly subjectPrefix: string,
    private readonly rpcLogger: Logger,
    private readonly connections?: NatsConnections,
  ) {
    super();
    this.linkName = serverOptions.name ?? 'rpc-server';
    if (serverOptions.replicaId) {
      this.replyHeaders = headers();
      this.replyHeaders.set(REPLICA_HEADER, serverOptions.replicaId);
    }
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      const servers = this.serverOptions.servers ?? 'nats://127.0.0.1:4222';
      this.connection = await connect(natsConnectionOptions(servers, this.linkName));
      this.connections?.track(this.linkName, this.connection);
      for (const [pattern, handler] of this.messageHandlers) this.subscribe(pattern, handler);
      this.startBeating();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /** Says this replica is alive, for callers that route idempotent requests around a stalled one. */
  private startBeating(): void {
    const { replicaId, queue } = this.serverOptions;
    if (!replicaId || !queue) return;
    const subject = this.subjectPrefix + replicaBeatSubject(queue);
    const beat = () => {
      if (this.connection && !this.connection.isClosed()) this.connection.publish(subject, replicaId);
    };
    beat();
    this.beating = setInterval(beat, REPLICA_BEAT_MS);
    this.beating.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.beating);
    this.connections?.untrack(this.linkName);
    for (const subscription of this.subjectSubscriptions.splice(0)) subscription.unsubscribe();
    await this.connection?.drain().catch(() => this.connection?.close());
    this.connection = undefined;
  }

  on(): never {
    throw new Error('The NATS RPC server reports its connection state through NatsConnections');
  }

  unwrap<T>(): T {
    if (!this.connection) throw new Error('The NATS RPC server is not listening');
    return this.connection as T;
  }

  private subscribe(pattern: string, handler: MessageHandler): void {
    const queue = (handler.extras as { queue?: string } | undefined)?.queue ?? this.serverOptions.queue;
    const callback = (error: Error | null, msg: Msg) => {
      if (!error) void this.onMessage(pattern, handler, msg);
    };
    this.subjectSubscriptions.push(
      this.connection!.subscribe(this.subjectPrefix + pattern, { ...(queue ? { queue } : {}), callback }),
    );
    const { replicaId } = this.serverOptions;
    if (replicaId && rpcRouteOf(pattern)?.idempotent)
      this.subjectSubscriptions.push(
        this.connection!.subscribe(this.subjectPrefix + replicaSubject(pattern, replicaId), { callback }),
      );
  }

  private async onMessage(pattern: string, handler: MessageHandler, msg: Msg): Promise<void> {
    const parent = contextFromHeaders(msg.headers);
    const attributes = natsSpanAttributes(pattern, 'process');
    const span = platformTracer().startSpan(pattern, { kind: SpanKind.SERVER, attributes }, parent);
    try {
      await context.with(trace.setSpan(parent, span), () => this.handle(pattern, handler, msg, span));
    } catch (error) {
      markSpanFailed(span, error);
      this.rpcLogger.error({ subject: msg.subject, err: error }, 'nats message not handled');
    } finally {
      span.end();
    }
  }

  private async handle(pattern: string, handler: MessageHandler, msg: Msg, span: Span): Promise<void> {
    const packet = decodePacket(msg);
    // The handler's log lines name the tenant and session the request is about.
    await runWithContext(contextOfPayload(packet.data), () =>
      this.answer(pattern, handler, msg, span, packet),
    );
  }

  private async answer(
    pattern: string,
    handler: MessageHandler,
    msg: Msg,
    span: Span,
    packet: { id?: string; data: unknown },
  ): Promise<void> {
    const ctx = new NatsContext([msg.subject, msg.headers]);
    if (!msg.reply) {
      await this.handleEvent(pattern, { pattern, data: packet.data }, ctx);
      return;
    }
    const reply = await answerRequest({
      pattern,
      handler,
      packet,
      ctx,
      wireSubject: msg.subject,
      logger: this.rpcLogger,
      // Read per reply: a reconnect may land on a server with another limit.
      maxPayload: this.connection?.info?.max_payload,
    });
    recordReplyOutcome(span, reply);
    msg.respond(
      encoder.encode(JSON.stringify(reply)),
      this.replyHeaders ? { headers: this.replyHeaders } : {},
    );
  }
}

/**
 * The request packet (`{ pattern, data, id }`); a body that is not one is passed on as the data itself,
 * and a body that is not JSON as undefined (the subject's schema then names what is missing).
 */
function decodePacket(msg: Msg): { id?: string; data: unknown } {
  let body: unknown;
  try {
    body = msg.data.length === 0 ? undefined : msg.json();
  } catch {
    return { data: undefined };
  }
  if (typeof body === 'object' && body !== null && 'data' in body) {
    const { id, data } = body as { id?: unknown; data: unknown };
    return { id: typeof id === 'string' ? id : undefined, data };
  }
  return { data: body };
}

function recordReplyOutcome(span: Span, packet: ReplyPacket): void {
  if (packet.err !== undefined) {
    markSpanFailed(span, 'transport error', 'TRANSPORT_ERROR');
    return;
  }
  const envelope = packet.response as
    { ok?: boolean; error?: { code?: string; message?: string } } | undefined;
  if (envelope?.ok === false)
    markSpanFailed(span, envelope.error?.message ?? 'error', envelope.error?.code ?? 'INTERNAL');
}
