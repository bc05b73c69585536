import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SseConnection } from './sse-connection.js';

/** The default bound. */
const BOUND = 1024 * 1024;
const FRAME = `data: ${'x'.repeat(64 * 1024)}\n\n`;

/** A real HTTP server whose one request's response the test drives through an SseConnection. */
async function serveOne(): Promise<{ server: Server; client: Socket; connection: SseConnection }> {
  let accept: (response: ServerResponse) => void = () => undefined;
  const responded = new Promise<ServerResponse>((resolve) => (accept = resolve));
  const server = createServer((_request, response) => accept(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client.write('GET /stream HTTP/1.1\r\nhost: test\r\naccept: text/event-stream\r\n\r\n');
  const connection = new SseConnection(await responded, 'v1', BOUND);
  connection.open();
  connection.live = true;
  return { server, client, connection };
}

/** Writes `perTurn` frames per turn of the event loop, as live fan-out does; returns the bytes written. */
async function pump(connection: SseConnection, limitBytes: number, perTurn: number): Promise<number> {
  let written = 0;
  while (written < limitBytes && !connection.isClosed) {
    for (let i = 0; i < perTurn && connection.write(FRAME); i += 1) written += FRAME.length;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return written;
}

describe('SseConnection backpressure', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('closes a client that stops reading instead of buffering without limit', async () => {
    const one = await serveOne();
    server = one.server;
    one.client.pause();
    const written = await pump(one.connection, 512 * 1024 * 1024, 4);
    expect(one.connection.isClosed).toBe(true);
    // What the kernel's socket buffers hold plus the bound: nowhere near the half gigabyte offered.
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(one.connection.write(FRAME)).toBe(false);
  });

  it('keeps a client that reads, however much goes through', async () => {
    const one = await serveOne();
    server = one.server;
    let received = 0;
    one.client.on('data', (chunk: Buffer) => (received += chunk.length));
    const written = await pump(one.connection, 32 * 1024 * 1024, 1);
    expect(one.connection.isClosed).toBe(false);
    expect(written).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    await vi.waitFor(() => expect(received).toBeGreaterThanOrEqual(written), { timeout: 10_000 });
  });
});

describe('SseConnection end (the gateway is stopping)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('ends an open stream so the client sees it finish and can resume elsewhere', async () => {
    const one = await serveOne();
    server = one.server;
    let received = '';
    one.client.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise((resolve) => one.client.once('end', resolve).once('close', resolve));
    one.connection.end();
    expect(one.connection.isClosed).toBe(true);
    // Chunked encoding's last chunk: the response is complete, not cut.
    await vi.waitFor(() => expect(received).toMatch(/\r\n0\r\n\r\n$/));
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    one.client.end();
    await ended;
  });
});
