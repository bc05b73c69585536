import { ClientNats, type NatsOptions, type NatsRecord, type WritePacket } from '@nestjs/microservices';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { natsConnectionOptions } from './nats-connection-options.js';
import type { NatsConnections } from './nats-connections.js';

type ClientNatsOptions = NonNullable<NatsOptions['options']>;

/**
 * Client side of {@link PrefixedServerNats}: publishes under the same installation prefix, and
 * reconnects forever with backoff (requests made while NATS is away fail fast as unavailable).
 */
export class PrefixedClientNats extends ClientNats {
  private readonly linkName: string;

  constructor(
    options: ClientNatsOptions,
    private readonly subjectPrefix: string,
    private readonly connections?: NatsConnections,
  ) {
    const name = options.name ?? 'rpc-client';
    super({ ...natsConnectionOptions(options.servers ?? 'nats://127.0.0.1:4222', name), ...options });
    this.linkName = name;
  }

  protected override normalizePattern(pattern: unknown): string {
    return this.subjectPrefix + super.normalizePattern(pattern as string);
  }

  override async createClient(): Promise<NatsConnection> {
    const connection = (await super.createClient()) as NatsConnection;
    this.connections?.track(this.linkName, connection);
    return connection;
  }

  /**
   * One request and its first reply, in the packets `send` uses, over the connection's shared reply
   * subscription. `send` subscribes and unsubscribes an inbox of its own for each request: two socket
   * writes (SUB with PUB, then UNSUB) and a server-side subscription per request, where this makes one
   * write. Rejects on a handler's `err`, a reply that ends with no response, no responder, or the timeout.
   */
  async request(pattern: string, record: NatsRecord, timeoutMs: number): Promise<unknown> {
    const connection = (await this.connect()) as NatsConnection;
    const packet = this.assignPacketId(this.createPacket(pattern, record));
    const serialized = this.serializer.serialize(packet) as { data: string; headers?: unknown };
    const message: Msg = await connection.request(this.normalizePattern(pattern), serialized.data, {
      timeout: timeoutMs,
      headers: this.mergeHeaders(serialized.headers),
    });
    const { err, response, isDisposed } = (await this.deserializer.deserialize(message)) as WritePacket;
    if (err) throw err;
    // What `firstValueFrom(send(...))` does with a reply that completes without a value.
    if (response === undefined && isDisposed) throw new Error(`No response to ${pattern}`);
    return response;
  }

  override async close(): Promise<void> {
    this.connections?.untrack(this.linkName);
    await super.close();
  }
}
