import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Fire-and-forget pub/sub over core NATS (at-most-once). Nothing that must not be lost travels only
 * here: the event log in Postgres has it first; this only makes delivery fast.
 */
export class NatsBus {
  private constructor(
    private readonly connection: NatsConnection,
    private readonly prefix: string,
  ) {}

  static async connect(servers: string, prefix: string, name: string): Promise<NatsBus> {
    const connection = await connect({ servers: servers.split(','), name, maxReconnectAttempts: -1 });
    return new NatsBus(connection, prefix);
  }

  publish(subject: string, payload: unknown): void {
    this.connection.publish(this.prefix + subject, encoder.encode(JSON.stringify(payload)));
  }

  /** Calls `onMessage` for each message until the returned function is called. */
  subscribe(subject: string, onMessage: (payload: unknown) => void, queue?: string): () => void {
    const subscription: Subscription = this.connection.subscribe(this.prefix + subject, {
      ...(queue ? { queue } : {}),
      callback: (error, message) => {
        if (error) return;
        try {
          onMessage(JSON.parse(decoder.decode(message.data)));
        } catch {
          // A malformed message is dropped: subscribers read the log for anything authoritative.
        }
      },
    });
    return () => subscription.unsubscribe();
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
