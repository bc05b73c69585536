import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackQuietConnections } from './quiet-connections.js';

let server: Server | undefined;

afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
}

describe('trackQuietConnections', () => {
  it('closes connections with no request in flight and lets a response in flight finish', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = createServer((_req, res) => void held.then(() => res.end('the whole body')));
    const connections = trackQuietConnections(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    // A client's spare connection that never sends a request: Node's close alone waits on it.
    const spare = connect(port, '127.0.0.1');
    await new Promise((resolve) => spare.once('connect', resolve));
    const body = new Promise<string>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    });
    await new Promise((resolve) => server!.once('request', resolve));

    connections.closeQuiet();
    const stopped = new Promise<void>((resolve) => server!.close(() => resolve()));
    await closed(spare);
    release();
    expect(await body).toBe('the whole body');
    await stopped;
  });
});
