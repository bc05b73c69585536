import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** One client's connection through the proxy, and the proxy's own connection to the target for it. */
export interface ProxiedConnection {
  readonly client: Socket;
  readonly server: Socket;
  /** Anything a relay wants to remember about the connection (e.g. the client's name). */
  label: string;
}

/** How bytes cross the proxy; by default each chunk is written through as it arrives. */
export interface TcpRelay {
  fromClient?(connection: ProxiedConnection, chunk: Buffer): void;
  fromServer?(connection: ProxiedConnection, chunk: Buffer): void;
}

type LinkState = 'open' | 'blackholed' | 'dropped';

/**
 * A TCP proxy on loopback in front of a backing service (NATS, Redis, Postgres), for partition tests: a
 * service given the proxy's address instead of the real one has that one link cut on demand.
 *
 * - `blackhole()`: connections stay up but nothing crosses in either direction; new connections are
 *   accepted and held. Bytes sent meanwhile wait in the socket buffers, as they would in TCP retransmission
 *   across a network partition, and flow again on `heal()`.
 * - `drop()`: every connection is reset and new ones are reset as soon as they arrive (a refused link).
 * - `heal()`: traffic flows again; held connections reach the target.
 */
export class TcpProxy {
  private readonly connections = new Set<ProxiedConnection>();
  /** Clients accepted while blackholed, not yet connected to the target. */
  private readonly held = new Set<Socket>();
  private linkState: LinkState = 'open';

  private constructor(
    private readonly listener: Server,
    private readonly target: { host: string; port: number },
    private readonly relay: TcpRelay,
  ) {}

  static async start(target: { host: string; port: number }, relay: TcpRelay = {}): Promise<TcpProxy> {
    const listener = createServer({ pauseOnConnect: true });
    const proxy = new TcpProxy(listener, target, relay);
    listener.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy in front of the host and port of `url` (`nats://`, `redis://`, `postgresql://`). */
  static forUrl(url: string, relay?: TcpRelay): Promise<TcpProxy> {
    const parsed = new URL(url);
    return TcpProxy.start({ host: parsed.hostname, port: Number(parsed.port) }, relay);
  }

  get port(): number {
    return (this.listener.address() as AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  get state(): LinkState {
    return this.linkState;
  }

  /** Live connections through the proxy (held ones not counted). */
  get open(): readonly ProxiedConnection[] {
    return [...this.connections];
  }

  blackhole(): void {
    this.linkState = 'blackholed';
    for (const { client, server } of this.connections) {
      client.pause();
      server.pause();
    }
  }

  drop(): void {
    this.linkState = 'dropped';
    for (const connection of this.connections) this.reset(connection);
    for (const client of this.held) client.resetAndDestroy();
    this.held.clear();
  }

  heal(): void {
    this.linkState = 'open';
    for (const { client, server } of this.connections) {
      client.resume();
      server.resume();
    }
    const held = [...this.held];
    this.held.clear();
    for (const client of held) this.link(client);
  }

  /** Closes the connections `which` picks; their clients may connect again. */
  cut(which: (connection: ProxiedConnection) => boolean): number {
    let cut = 0;
    for (const connection of this.connections) {
      if (!which(connection)) continue;
      this.reset(connection);
      cut += 1;
    }
    return cut;
  }

  async stop(): Promise<void> {
    for (const connection of this.connections) this.reset(connection);
    for (const client of this.held) client.destroy();
    this.held.clear();
    await new Promise<void>((resolve) => this.listener.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.linkState === 'dropped') {
      client.resetAndDestroy();
      return;
    }
    if (this.linkState === 'blackholed') {
      this.held.add(client);
      client.on('error', () => this.held.delete(client)).on('close', () => this.held.delete(client));
      return;
    }
    this.link(client);
  }

  private link(client: Socket): void {
    if (client.destroyed) return;
    const server = connect(this.target);
    const connection: ProxiedConnection = { client, server, label: '' };
    this.connections.add(connection);
    const end = () => {
      this.connections.delete(connection);
      client.destroy();
      server.destroy();
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) =>
      this.relay.fromClient ? this.relay.fromClient(connection, chunk) : server.write(chunk),
    );
    server.on('data', (chunk: Buffer) =>
      this.relay.fromServer ? this.relay.fromServer(connection, chunk) : client.write(chunk),
    );
    client.resume();
  }

  private reset(connection: ProxiedConnection): void {
    this.connections.delete(connection);
    if (!connection.client.destroyed) connection.client.resetAndDestroy();
    if (!connection.server.destroyed) connection.server.resetAndDestroy();
  }
}
