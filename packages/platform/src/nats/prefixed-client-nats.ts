import { ClientNats, type NatsOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
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

  override async close(): Promise<void> {
    this.connections?.untrack(this.linkName);
    await super.close();
  }
}
