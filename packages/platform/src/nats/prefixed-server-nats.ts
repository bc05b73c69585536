import {
  ServerNats,
  type IncomingRequest,
  type MessageHandler,
  type NatsContext,
  type NatsOptions,
} from '@nestjs/microservices';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { isObservable, lastValueFrom } from 'rxjs';
import type { Logger } from '../logging/logger.js';
import { markSpanFailed, platformTracer } from '../telemetry/trace-context.js';
import { natsConnectionOptions } from './nats-connection-options.js';
import type { NatsConnections } from './nats-connections.js';
import { contextFromHeaders, natsSpanAttributes } from './nats-trace.js';
import { replyWithinPayload } from './reply-within-payload.js';
import { answerRpc, RpcCallContext, rpcRouteOf } from './rpc-answer.js';

type ServerNatsOptions = NonNullable<NatsOptions['options']>;
type ReplyPacket = { response?: unknown; err?: unknown; isDisposed?: boolean };

/**
 * Nest's NATS transport, with every subscribed subject under an installation prefix. Handlers keep
 * their catalog subject (`control.agent.create`); only the wire subject carries the prefix, so two
 * installations (or two test runs) can share one NATS server without hearing each other.
 *
 * Each message is handled inside a SERVER span named after the catalog subject, whose parent is the
 * trace context in the message headers (a new trace when there is none). The span ends with the reply
 * and is ERROR when the reply is an error envelope or a transport error.
 *
 * The connection reconnects forever with backoff and re-subscribes every handler subject, so an
 * outage of NATS, however long, ends with the handlers answering again.
 *
 * A reply larger than the server's `max_payload` is cut to a shorter page or answered with an error
 * envelope (`replyWithinPayload`), never left for the caller's timeout.
 *
 * A request to an `@RpcHandler` method is answered here (`answerRpc`: parsed, called, wrapped in the
 * envelope, published once) instead of through Nest's per-request observables; Nest still routes it to
 * the controller instance. Other patterns take Nest's own path.
 */
export class PrefixedServerNats extends ServerNats {
  private readonly spans = new WeakMap<Msg, { span: Span; replying: boolean }>();

  private readonly linkName: string;

  private connection?: NatsConnection;

  /** `rpcLogger` hears every failed request (expected ones at warn). */
  constructor(
    options: ServerNatsOptions,
    private readonly subjectPrefix: string,
    private readonly rpcLogger: Logger,
    private readonly connections?: NatsConnections,
  ) {
    const name = options.name ?? 'rpc-server';
    super({ ...natsConnectionOptions(options.servers ?? 'nats://127.0.0.1:4222', name), ...options });
    this.linkName = name;
  }

  override async createNatsClient(): Promise<NatsConnection> {
    const connection = (await super.createNatsClient()) as NatsConnection;
    this.connections?.track(this.linkName, connection);
    this.connection = connection;
    return connection;
  }

  override async close(): Promise<void> {
    this.connections?.untrack(this.linkName);
    await super.close();
  }

  override bindEvents(client: any): void {
    // `options` and `subscriptions` are private in the base class; they are the documented extension points.
    const self = this as unknown as { options: ServerNatsOptions; subscriptions: unknown[] };
    const defaultQueue = self.options.queue;
    for (const [channel, handler] of this.messageHandlers) {
      const queue = (handler.extras as { queue?: string } | undefined)?.queue ?? defaultQueue;
      const subscription = client.subscribe(this.subjectPrefix + channel, {
        queue,
        callback: this.getMessageHandler(channel).bind(this),
      });
      self.subscriptions.push(subscription);
    }
  }

  override async handleMessage(channel: string, natsMsg: Msg): Promise<any> {
    const parent = contextFromHeaders(natsMsg.headers);
    const attributes = natsSpanAttributes(channel, 'process');
    const span = platformTracer().startSpan(channel, { kind: SpanKind.SERVER, attributes }, parent);
    const state = { span, replying: false };
    this.spans.set(natsMsg, state);
    try {
      const handler = natsMsg.reply ? this.getHandlerByPattern(channel) : null;
      const route = handler ? rpcRouteOf(channel) : undefined;
      const handled: unknown = await context.with(trace.setSpan(parent, span), () =>
        handler && route
          ? this.answer(route, handler, channel, natsMsg)
          : super.handleMessage(channel, natsMsg),
      );
      // A message without a reply id is an event: nothing more will happen under this span.
      if (!state.replying) span.end();
      return handled;
    } catch (error) {
      markSpanFailed(span, error);
      span.end();
      throw error;
    }
  }

  /** One request to an `@RpcHandler` method, answered in one reply packet. */
  private async answer(
    route: NonNullable<ReturnType<typeof rpcRouteOf>>,
    handler: MessageHandler,
    channel: string,
    natsMsg: Msg,
  ): Promise<void> {
    const natsCtx = new RpcCallContext([natsMsg.subject, natsMsg.headers]);
    const message = (await this.deserializer.deserialize(natsMsg, {
      channel,
      replyTo: natsMsg.reply,
    })) as IncomingRequest;
    const publish = this.getPublisher(natsMsg, message.id, natsCtx);
    const response = await answerRpc(
      route,
      message.data,
      async (request) => {
        const result: unknown = await handler(request, natsCtx);
        if (natsCtx.failure) throw natsCtx.failure.error;
        // Nest's own exception path (a failure before the method ran) hands back an observable of the error.
        return isObservable(result) ? lastValueFrom(result) : result;
      },
      natsMsg.subject,
      this.rpcLogger,
    );
    publish({ response, isDisposed: true });
  }

  override getPublisher(natsMsg: Msg, id: string, ctx: NatsContext): (response: any) => any {
    // The server's limit is read per reply: a reconnect may land on a server with another one.
    const publish = replyWithinPayload(
      super.getPublisher(natsMsg, id, ctx),
      () => this.connection?.info?.max_payload,
    );
    const state = this.spans.get(natsMsg);
    if (!state) return publish;
    state.replying = true;
    let ended = false;
    return (packet: ReplyPacket) => {
      try {
        return publish(packet);
      } finally {
        if (!ended) {
          recordReplyOutcome(state.span, packet);
          // An error packet may come without `isDisposed` (no handler for the subject): it is final too.
          if (packet.isDisposed || packet.err !== undefined) {
            ended = true;
            state.span.end();
          }
        }
      }
    };
  }
}

function recordReplyOutcome(span: Span, packet: ReplyPacket): void {
  if (packet.err !== undefined) {
    const err = packet.err as { message?: unknown } | string;
    const message =
      typeof err === 'string' ? err : typeof err?.message === 'string' ? err.message : 'transport error';
    markSpanFailed(span, message, 'TRANSPORT_ERROR');
    return;
  }
  const envelope = packet.response as
    { ok?: boolean; error?: { code?: string; message?: string } } | undefined;
  if (envelope?.ok === false)
    markSpanFailed(span, envelope.error?.message ?? 'error', envelope.error?.code ?? 'INTERNAL');
}
