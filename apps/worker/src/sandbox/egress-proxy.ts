import { chmod, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { decideEgress, type EgressPolicyOptions } from './egress-policy.js';

/**
 * An HTTP proxy on a unix socket: the only way out of a sandbox's network namespace. It serves
 * `CONNECT host:port` (HTTPS and other TCP) and absolute-form HTTP requests, each decided by the
 * session's egress policy; refusals are `403` with the reason as the body.
 */
export class EgressProxy {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
    private policy: EgressPolicyOptions,
  ) {}

  static async listen(socketPath: string, policy: EgressPolicyOptions): Promise<EgressProxy> {
    if (Buffer.byteLength(socketPath) > 100) throw new Error(`egress socket path is too long for a unix socket: ${socketPath}`);
    await rm(socketPath, { force: true });
    const server = createServer();
    const proxy = new EgressProxy(server, socketPath, policy);
    server.on('request', (req, res) => void proxy.forward(req, res));
    server.on('connect', (req, socket, head) => void proxy.tunnel(req, socket as Socket, head));
    server.on('connection', (socket: Socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
    // The sandbox's user is not the worker's: it must be able to connect.
    await chmod(socketPath, 0o666);
    return proxy;
  }

  /** The environment's networking can change between calls; the next connection follows it. */
  update(policy: EgressPolicyOptions): void {
    this.policy = policy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.socketPath, { force: true });
  }

  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    const decision = target ? await decideEgress(target.host, target.port, this.policy) : { refusal: 'CONNECT needs host:port' };
    if ('refusal' in decision) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\negress refused: ${decision.refusal}\n`);
      return;
    }
    const upstream = connect(target!.port, decision.address);
    this.sockets.add(upstream);
    upstream.on('close', () => this.sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      if (client.writable && upstream.bytesRead === 0) client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\negress failed: ${err.message}\n`);
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return refuse(res, 400, 'the proxy takes absolute http:// URLs or CONNECT');
    }
    if (url.protocol !== 'http:') return refuse(res, 400, `${url.protocol} is not proxied; use CONNECT`);
    const port = Number(url.port || 80);
    const decision = await decideEgress(url.hostname, port, this.policy);
    if ('refusal' in decision) return refuse(res, 403, `egress refused: ${decision.refusal}`);
    const upstream = httpRequest(
      { host: decision.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers: { ...req.headers, host: url.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => (res.headersSent ? res.destroy() : refuse(res, 502, `egress failed: ${err.message}`)));
    req.pipe(upstream);
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`${message}\n`);
}

function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  return match ? { host: match[1]!, port: Number(match[2]) } : null;
}
