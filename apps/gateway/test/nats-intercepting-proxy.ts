import { TcpProxy, type ProxiedConnection } from '@agentry/testing';

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
  private readonly pending = new WeakMap<ProxiedConnection, Buffer>();
  private proxy!: TcpProxy;

  private constructor() {}

  static async start(target = { host: '127.0.0.1', port: 4222 }): Promise<NatsInterceptingProxy> {
    const intercepting = new NatsInterceptingProxy();
    intercepting.proxy = await TcpProxy.start(target, {
      fromClient: (connection, chunk) => {
        // The client names itself in its first operation, CONNECT.
        if (!connection.label)
          connection.label = /"name":"([^"]*)"/.exec(chunk.toString('latin1'))?.[1] ?? '';
        connection.server.write(chunk);
      },
      fromServer: (connection, chunk) => {
        const buffer = Buffer.concat([intercepting.pending.get(connection) ?? Buffer.alloc(0), chunk]);
        intercepting.pending.set(connection, intercepting.forward(buffer, connection));
      },
    });
    return intercepting;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.proxy.port}`;
  }

  /** Closes every connection of clients named `name`; they reconnect through the proxy. */
  cut(name: string): number {
    return this.proxy.cut((connection) => connection.label === name);
  }

  stop(): Promise<void> {
    return this.proxy.stop();
  }

  /** Forwards every complete protocol operation in `buffer`, minus dropped deliveries; returns the rest. */
  private forward(buffer: Buffer, connection: ProxiedConnection): Buffer {
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
        this.drop?.client === connection.label &&
        this.drop.subject.test(subject) &&
        (this.drop.payload?.test(buffer.toString('utf8', lineEnd + 2, end)) ?? true);
      if (dropped) this.dropped += 1;
      else connection.client.write(buffer.subarray(offset, end));
      offset = end;
    }
    return buffer.subarray(offset);
  }
}
