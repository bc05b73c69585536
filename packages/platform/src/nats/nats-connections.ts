import type { NatsConnection } from '@nats-io/transport-node';

type LinkState = 'connected' | 'disconnected' | 'closed';

/**
 * The NATS connections of one process and whether each is connected now. Readiness fails while any
 * of them is down: a service whose request handlers cannot hear NATS must not look healthy.
 */
export class NatsConnections {
  private readonly links = new Map<string, { connection: NatsConnection; state: LinkState }>();

  track(name: string, connection: NatsConnection): void {
    const link = { connection, state: connection.isClosed() ? ('closed' as const) : ('connected' as const) };
    this.links.set(name, link);
    void this.follow(link);
  }

  /** Forgets a connection its owner closed on purpose (shutdown, or replaced by a new one). */
  untrack(name: string): void {
    this.links.delete(name);
  }

  /** Names of connections that are not connected right now. */
  down(): string[] {
    return [...this.links]
      .filter(([, link]) => link.state !== 'connected')
      .map(([name, link]) => `${name} ${link.state}`);
  }

  private async follow(link: { connection: NatsConnection; state: LinkState }): Promise<void> {
    for await (const status of link.connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnecting') link.state = 'disconnected';
      else if (status.type === 'reconnect') link.state = 'connected';
    }
    link.state = 'closed';
  }
}
