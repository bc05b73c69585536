import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

const CRLF = Buffer.from('\r\n');

/**
 * A TCP proxy in front of the real NATS server, for tests. It reads the server → client stream of each
 * connection well enough to drop chosen deliveries (`MSG`/`HMSG`) to clients of a given name, and can
 * cut a client's connection to make it reconnect: a lost message and a network blip, on demand.
 */
export class NatsInterceptingProxy {
  /**
   * Deliveries to clients named `client` whose subject matches `subject` (and body `payload`, when
   * given) are dropped while set.
   */
  drop: { client: string; subject: RegExp; payload?: RegExp } | null = null;
  /** How many deliveries `drop` has dropped. */
  dropped = 0;
  private readonly connections = new Set<{ name: string; client: Socket; server: Socket }>();

  private constructor(
    private readonly listener: Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target = { host: '127.0.0.1', port: 4222 }): Promise<NatsInterceptingProxy> {
    const listener = createServer();
    const proxy = new NatsInterceptingProxy(listener, target);
    listener.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `nats://127.0.0.1:${(this.listener.address() as AddressInfo).port}`;
  }

  /** Closes every connection of clients named `name`; they reconnect through the proxy. */
  cut(name: string): number {
    let cut = 0;
    for (const connection of this.connections) {
      if (connection.name !== name) continue;
      connection.client.destroy();
      connection.server.destroy();
      cut += 1;
    }
    return cut;
  }

  async stop(): Promise<void> {
    for (const { client, server } of this.connections) {
      client.destroy();
      server.destroy();
    }
    await new Promise<void>((resolve) => this.listener.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const server = connect(this.target);
    const connection = { name: '', client, server };
    this.connections.add(connection);
    const end = () => {
      this.connections.delete(connection);
      client.destroy();
      server.destroy();
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (!connection.name) connection.name = /"name":"([^"]*)"/.exec(chunk.toString('latin1'))?.[1] ?? '';
      server.write(chunk);
    });
    let pending: Buffer = Buffer.alloc(0);
    server.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      pending = this.forward(pending, connection.name, client);
    });
  }

  /** Forwards every complete protocol operation in `buffer`, minus dropped deliveries; returns the rest. */
  private forward(buffer: Buffer, name: string, client: Socket): Buffer {
    let offset = 0;
    for (;;) {
      const lineEnd = buffer.indexOf(CRLF, offset);
      if (lineEnd < 0) break;
      const line = buffer.toString('latin1', offset, lineEnd);
      let end = lineEnd + 2;
      let subject: string | null = null;
      if (line.startsWith('MSG ') || line.startsWith('HMSG ')) {
        const fields = line.split(' ');
        end += Number(fields.at(-1)) + 2;
        subject = fields[1] ?? null;
      }
      if (end > buffer.length) break;
      const dropped =
        subject !== null &&
        this.drop?.client === name &&
        this.drop.subject.test(subject) &&
        (this.drop.payload?.test(buffer.toString('utf8', lineEnd + 2, end)) ?? true);
      if (dropped) this.dropped += 1;
      else client.write(buffer.subarray(offset, end));
      offset = end;
    }
    return buffer.subarray(offset);
  }
}
