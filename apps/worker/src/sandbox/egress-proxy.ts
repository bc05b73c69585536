import { chmod, rm } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, isIP, type Socket } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import type { SandboxCredential } from '@agentry/contracts';
import { swapBody, swapHeaders, swapsFor } from './credential-swap.js';
import type { EgressCa } from './egress-ca.js';
import { decideEgress, type EgressPolicyOptions } from './egress-policy.js';

/** A request body the proxy reads whole to swap a secret into; larger ones are refused. */
const MAX_SWAPPED_BODY_BYTES = 16 * 1024 * 1024;

/** Where one request goes once the policy admitted it. */
interface Target {
  secure: boolean;
  host: string;
  port: number;
  address: string;
}

/**
 * An HTTP proxy on a unix socket: the only way out of a sandbox's network namespace. It serves
 * `CONNECT host:port` (HTTPS and other TCP) and absolute-form HTTP requests, each decided by the
 * session's egress policy; refusals are `403` with the reason as the body.
 *
 * Requests to a host one of the session's `environment_variable` credentials admits get the credential's
 * secret in place of its placeholder (headers, and the body when the credential says so). Plain HTTP is
 * rewritten as it passes; HTTPS to such a host is opened with a certificate of the installation's egress
 * CA (which the sandbox trusts) and sent on over a new, verified TLS connection. Every other connection
 * is tunnelled untouched, so a placeholder sent elsewhere stays a placeholder.
 */
export class EgressProxy {
  private readonly sockets = new Set<Socket>();
  /** Parses the HTTP inside the TLS connections the proxy opens; never listens itself. */
  private readonly opened: Server;
  private readonly openedTargets = new WeakMap<Socket, Target>();

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
    private policy: EgressPolicyOptions,
    private credentials: readonly SandboxCredential[],
    private readonly ca: EgressCa | null,
  ) {
    this.opened = createServer((req, res) => {
      const target = this.openedTargets.get(req.socket);
      if (!target) return refuse(res, 502, 'egress failed: lost the connection target');
      void this.relay(req, res, target, `${req.url ?? '/'}`);
    });
  }

  static async listen(
    socketPath: string,
    policy: EgressPolicyOptions,
    credentials: readonly SandboxCredential[] = [],
    ca: EgressCa | null = null,
  ): Promise<EgressProxy> {
    if (Buffer.byteLength(socketPath) > 100)
      throw new Error(`egress socket path is too long for a unix socket: ${socketPath}`);
    await rm(socketPath, { force: true });
    const server = createServer();
    const proxy = new EgressProxy(server, socketPath, policy, credentials, ca);
    server.on('request', (req, res) => void proxy.forward(req, res));
    server.on('connect', (req, socket, head) => void proxy.tunnel(req, socket as Socket, head));
    server.on('connection', (socket: Socket) => proxy.track(socket));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
    // The sandbox's user is not the worker's: it must be able to connect.
    await chmod(socketPath, 0o666);
    return proxy;
  }

  /** The environment's networking and the session's credentials can change between calls; the next request follows them. */
  update(policy: EgressPolicyOptions, credentials: readonly SandboxCredential[]): void {
    this.policy = policy;
    this.credentials = credentials;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.opened.close();
    await rm(this.socketPath, { force: true });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    const decision = target
      ? await decideEgress(target.host, target.port, this.policy)
      : { refusal: 'CONNECT needs host:port' };
    if ('refusal' in decision) {
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\negress refused: ${decision.refusal}\n`,
      );
      return;
    }
    const host = target!.host.replace(/^\[|\]$/g, '');
    if (this.ca && swapsFor(this.credentials, host, target!.port).length > 0) {
      this.open(client, head, { secure: true, host, port: target!.port, address: decision.address });
      return;
    }
    const upstream = connect(target!.port, decision.address);
    this.track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      if (client.writable && upstream.bytesRead === 0)
        client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\negress failed: ${err.message}\n`);
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }

  /** Terminates the sandbox's TLS with a certificate of the egress CA for `target.host`, then serves its requests. */
  private open(client: Socket, head: Buffer, target: Target): void {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) client.unshift(head);
    const tls = new TLSSocket(client, {
      isServer: true,
      secureContext: createSecureContext(this.ca!.leafFor(target.host)),
      ALPNProtocols: ['http/1.1'],
    });
    tls.on('error', () => tls.destroy());
    this.track(tls);
    this.openedTargets.set(tls, target);
    this.opened.emit('connection', tls);
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
    req.headers.host = url.host;
    await this.relay(
      req,
      res,
      { secure: false, host: url.hostname.replace(/^\[|\]$/g, ''), port, address: decision.address },
      `${url.pathname}${url.search}`,
    );
  }

  /** Sends one admitted request on, with the swaps of its host applied, and pipes the answer back. */
  private async relay(
    req: IncomingMessage,
    res: ServerResponse,
    target: Target,
    path: string,
  ): Promise<void> {
    const swaps = swapsFor(this.credentials, target.host, target.port);
    const headers: OutgoingHttpHeaders = { ...swapHeaders(req.headers, swaps) };
    delete headers['proxy-connection'];
    let body: Buffer | null = null;
    if (swaps.some((s) => s.body)) {
      body = await readBody(req, MAX_SWAPPED_BODY_BYTES);
      if (!body)
        return refuse(
          res,
          413,
          `egress refused: a request body carrying a credential may be ${MAX_SWAPPED_BODY_BYTES} bytes at most`,
        );
      body = swapBody(body, swaps);
      delete headers['transfer-encoding'];
      if (body.length > 0 || req.headers['content-length'] !== undefined)
        headers['content-length'] = String(body.length);
    }
    const options = { host: target.address, port: target.port, method: req.method, path, headers };
    const answer = (upstreamRes: IncomingMessage) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    };
    const upstream = target.secure
      ? httpsRequest({ ...options, ...(isIP(target.host) ? {} : { servername: target.host }) }, answer)
      : httpRequest(options, answer);
    upstream.on('error', (err) =>
      res.headersSent ? res.destroy() : refuse(res, 502, `egress failed: ${err.message}`),
    );
    if (body) upstream.end(body);
    else req.pipe(upstream);
  }
}

/** The whole body, or null past `limit` bytes. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`${message}\n`);
}

function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  return match ? { host: match[1]!, port: Number(match[2]) } : null;
}
