import { connect, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { markSpanFailed, platformTracer } from '../telemetry/trace-context.js';
import { natsConnectionOptions } from './nats-connection-options.js';
import type { NatsConnections } from './nats-connections.js';
import { contextFromHeaders, natsSpanAttributes, traceHeaders } from './nats-trace.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Fire-and-forget pub/sub over core NATS (at-most-once). Nothing that must not be lost travels only
 * here: the event log in Postgres has it first; this only makes delivery fast. A message carries the
 * publisher's trace context in its headers; each delivery runs in a CONSUMER span that continues it.
 */
export class NatsBus {
  private readonly reconnectListeners = new Set<() => void>();
  private watchingStatus = false;

  private constructor(
    private readonly connection: NatsConnection,
    private readonly prefix: string,
  ) {}

  /** Connects once; afterwards the connection reconnects (and re-subscribes) by itself, forever. */
  static async connect(
    servers: string,
    prefix: string,
    name: string,
    connections?: NatsConnections,
  ): Promise<NatsBus> {
    const connection = await connect(natsConnectionOptions(servers, name));
    connections?.track(name, connection);
    return new NatsBus(connection, prefix);
  }

  publish(subject: string, payload: unknown): void {
    const headers = traceHeaders();
    this.connection.publish(
      this.prefix + subject,
      encoder.encode(JSON.stringify(payload)),
      headers ? { headers } : {},
    );
  }

  /**
   * Calls `onMessage` for each message until the returned function is called, with the subject it came
   * on (without the prefix: what a wildcard matched).
   */
  subscribe(
    subject: string,
    onMessage: (payload: unknown, subject: string) => void,
    queue?: string,
  ): () => void {
    const subscription: Subscription = this.connection.subscribe(this.prefix + subject, {
      ...(queue ? { queue } : {}),
      callback: (error, message) => {
        if (!error) deliver(subject, message, this.prefix.length, onMessage);
      },
    });
    return () => subscription.unsubscribe();
  }

  /**
   * Calls `listener` after each reconnection, once the subscriptions are live again. Messages published
   * while the connection was down never arrive: a subscriber that must not miss anything re-reads its
   * source of truth here.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    if (!this.watchingStatus) {
      this.watchingStatus = true;
      void this.watchStatus();
    }
    return () => this.reconnectListeners.delete(listener);
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type !== 'reconnect') continue;
      await this.connection.flush().catch(() => undefined);
      for (const listener of this.reconnectListeners) listener();
    }
  }

  /** Resolves once the server has seen everything published so far. */
  async flush(): Promise<void> {
    await this.connection.flush();
  }

  isConnected(): boolean {
    return !this.connection.isClosed();
  }

  async close(): Promise<void> {
    await this.connection.drain().catch(() => this.connection.close());
  }
}

/** `subject` is the subscription's (for the span); the callback gets the one the message came on, unprefixed. */
function deliver(
  subject: string,
  message: Msg,
  prefixLength: number,
  onMessage: (payload: unknown, subject: string) => void,
): void {
  const parent = contextFromHeaders(message.headers);
  // Subjects carry ids (`evt.<sessionId>`); the span name keeps only their kind, so it stays groupable.
  const name = `process ${subject.split('.')[0]}`;
  const span = platformTracer().startSpan(
    name,
    { kind: SpanKind.CONSUMER, attributes: natsSpanAttributes(subject, 'process') },
    parent,
  );
  try {
    context.with(trace.setSpan(parent, span), () =>
      onMessage(JSON.parse(decoder.decode(message.data)), message.subject.slice(prefixLength)),
    );
  } catch (error) {
    // A malformed message is dropped: subscribers read the log for anything authoritative.
    markSpanFailed(span, error);
  } finally {
    span.end();
  }
}
