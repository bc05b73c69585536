import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietPeriod } from '../time/deliberate-waits.js';
import { pollUntil } from '../time/poll-until.js';
import { TcpProxy } from './tcp-proxy.js';

/** A client of the echo server behind the proxy, collecting what comes back and whether it was reset. */
class EchoClient {
  received = '';
  error: NodeJS.ErrnoException | undefined;
  closed = false;
  readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString()));
    this.socket.on('error', (error) => (this.error = error));
    this.socket.on('close', () => (this.closed = true));
  }

  until(what: string, accept: () => boolean): Promise<unknown> {
    return pollUntil(what, () => accept() || undefined, 5_000, { everyMs: 10 });
  }
}

describe('TcpProxy', () => {
  let echo: Server;
  let proxy: TcpProxy;
  const clients: EchoClient[] = [];
  const client = () => {
    const c = new EchoClient(proxy.port);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    // The proxy resets its side of a dropped link: the echo server sees the reset.
    echo = createServer((socket) => socket.on('error', () => undefined).pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const { port } = echo.address() as AddressInfo;
    proxy = await TcpProxy.forUrl(`redis://127.0.0.1:${port}`);
  });

  afterAll(async () => {
    for (const c of clients) c.socket.destroy();
    await proxy.stop();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it('points a URL at itself', () => {
    expect(proxy.urlFor('nats://127.0.0.1:4222')).toBe(`nats://127.0.0.1:${proxy.port}`);
    expect(proxy.urlFor('postgresql://postgres@127.0.0.1:5432/db?x=1')).toBe(
      `postgresql://postgres@127.0.0.1:${proxy.port}/db?x=1`,
    );
  });

  it('forwards nothing while blackholed, holding old and new connections, and delivers all on heal', async () => {
    const before = client();
    before.socket.write('a');
    await before.until('the echo', () => before.received === 'a');
    proxy.blackhole();
    before.socket.write('b');
    const during = client();
    during.socket.write('c');
    await quietPeriod(300); // nothing may cross in this window
    expect([before.received, during.received, before.closed, during.closed]).toEqual(['a', '', false, false]);
    proxy.heal();
    await before.until('the held bytes', () => before.received === 'ab');
    await during.until('the held connection', () => during.received === 'c');
  });

  it('resets every connection when dropped, refuses new ones, and lets them in again on heal', async () => {
    const open = client();
    open.socket.write('x');
    await open.until('the echo', () => open.received === 'x');
    proxy.drop();
    await open.until('the reset', () => open.closed);
    expect(open.error?.code).toBe('ECONNRESET');
    const refused = client();
    await refused.until('the refusal', () => refused.closed);
    expect(refused.received).toBe('');
    proxy.heal();
    const after = client();
    after.socket.write('y');
    await after.until('the echo after healing', () => after.received === 'y');
  });
});
