import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, posix } from 'node:path';

type SandboxState = 'running' | 'paused' | 'killed';

class ConnectError extends Error {
  constructor(
    readonly code: 'not_found' | 'already_exists' | 'failed_precondition',
    message: string,
  ) {
    super(message);
  }
}

const HTTP_STATUS = { not_found: 404, already_exists: 409, failed_precondition: 400 } as const;
const ENVD_VERSION = '0.4.0';

/**
 * E2B over HTTP as the `e2b` SDK speaks it, for tests: the control-plane REST API (create, connect, pause,
 * kill) and one envd for every sandbox (told apart by the `E2b-Sandbox-Id` header): its `/files` API and its
 * Connect RPC filesystem and process services, in JSON. Paths are host paths and commands run on the host
 * bash, so point the worker's workdir at a temporary directory. It records the requests and the API keys it
 * was sent; `down` answers every request with a 503.
 */
export class FakeE2bServer {
  readonly sandboxes = new Map<string, SandboxState>();
  readonly apiRequests: string[] = [];
  readonly apiKeys = new Set<string>();
  readonly envdHeaders: Array<Record<string, string | string[] | undefined>> = [];
  readonly killedPids: number[] = [];
  /** The command line of every process started, in order. */
  readonly started: string[] = [];
  down = false;
  /** Each sandbox creation asked for: when, and when it was ready (epoch ms; absent while held). */
  /** Each sandbox asked for, with the session the platform made it for (its `agentrySession` metadata). */
  readonly creations: Array<{ requestedAt: number; readyAt?: number; sessionId?: string }> = [];
  private createsHeld: Promise<void> | null = null;
  private readonly processes = new Map<number, ChildProcess>();
  private next = 1;
  private server!: Server;

  url = '';

  /** A slow provider: sandbox creations wait until the returned function is called. */
  holdCreates(): () => void {
    let release: () => void = () => undefined;
    this.createsHeld = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.createsHeld = null;
      release();
    };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => send(res, 500, { code: 500, message: String(err) }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const child of this.processes.values()) killGroup(child);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    if (this.down) return send(res, 503, { code: 503, message: 'E2B is unavailable' });
    const sandboxId = req.headers['e2b-sandbox-id'];
    if (typeof sandboxId === 'string') {
      this.envdHeaders.push(req.headers);
      if (this.sandboxes.get(sandboxId) !== 'running')
        return send(res, 502, { code: 502, message: `sandbox ${sandboxId} is not running` });
      return this.envd(url, req, body, res);
    }
    const key = req.headers['x-api-key'];
    if (typeof key === 'string') this.apiKeys.add(key);
    this.apiRequests.push(`${req.method} ${url.pathname}`);
    return this.controlPlane(req.method ?? 'GET', url.pathname, body, res);
  }

  private async controlPlane(method: string, path: string, body: Buffer, res: ServerResponse): Promise<void> {
    const created = (id: string, status: number) =>
      send(res, status, { sandboxID: id, templateID: 'base', clientID: 'fake', envdVersion: ENVD_VERSION });
    if (method === 'POST' && path === '/v2/sandboxes') {
      const id = `sbx${this.next++}`;
      const creation: (typeof this.creations)[number] = {
        requestedAt: Date.now(),
        ...sessionOfCreation(body),
      };
      this.creations.push(creation);
      if (this.createsHeld) await this.createsHeld;
      this.sandboxes.set(id, 'running');
      creation.readyAt = Date.now();
      return created(id, 201);
    }
    const match = /^\/(?:v2\/)?sandboxes\/([^/]+)(?:\/(connect|pause))?$/.exec(path);
    const id = match?.[1] ?? '';
    const state = this.sandboxes.get(id);
    if (!match || !state || state === 'killed')
      return send(res, 404, { code: 404, message: `Sandbox ${id} not found` });
    if (method === 'POST' && match[2] === 'connect') {
      this.sandboxes.set(id, 'running');
      return created(id, 200);
    }
    if (method === 'POST' && match[2] === 'pause') {
      if (state === 'paused') return send(res, 409, { code: 409, message: 'already paused' });
      this.sandboxes.set(id, 'paused');
      return send(res, 204);
    }
    if (method === 'DELETE' && !match[2]) {
      this.sandboxes.set(id, 'killed');
      return send(res, 204);
    }
    send(res, 404, { code: 404, message: 'no such route' });
  }

  private async envd(url: URL, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    if (url.pathname === '/health') return send(res, 204);
    if (url.pathname === '/files') return this.files(url, req, body, res);
    if (url.pathname === '/process.Process/Start') return this.startProcess(body, res);
    try {
      const request = JSON.parse(body.toString() || '{}') as Record<string, unknown>;
      send(res, 200, await this.unary(url.pathname, request));
    } catch (err) {
      if (!(err instanceof ConnectError)) throw err;
      send(res, HTTP_STATUS[err.code], { code: err.code, message: err.message });
    }
  }

  private async unary(path: string, request: Record<string, unknown>): Promise<unknown> {
    const at = request.path as string;
    switch (path) {
      case '/filesystem.Filesystem/Stat':
        return { entry: await entry(at) };
      case '/filesystem.Filesystem/MakeDir':
        if (await exists(at)) throw new ConnectError('already_exists', `${at} exists`);
        await mkdir(at, { recursive: true });
        return { entry: await entry(at) };
      case '/filesystem.Filesystem/ListDir':
        return { entries: await list(at, Number(request.depth ?? 1)) };
      case '/filesystem.Filesystem/Move':
        await entry(request.source as string);
        await rename(request.source as string, request.destination as string);
        return { entry: await entry(request.destination as string) };
      case '/filesystem.Filesystem/Remove':
        await rm(at, { recursive: true, force: true });
        return {};
      case '/process.Process/SendSignal': {
        // A oneof has no name of its own in JSON: the selector is `{ pid }` or `{ tag }`.
        const pid = (request.process as { pid?: number })?.pid ?? 0;
        const child = this.processes.get(pid);
        if (!child) throw new ConnectError('not_found', `process ${pid} not found`);
        this.killedPids.push(pid);
        killGroup(child);
        return {};
      }
      default:
        throw new ConnectError('not_found', `no method ${path}`);
    }
  }

  private async files(url: URL, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const path = url.searchParams.get('path') ?? '';
    if (req.method === 'GET') {
      if (!(await exists(path)))
        return send(res, 404, { code: 404, message: `path '${path}' does not exist` });
      const data = await readFile(path);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.byteLength });
      return void res.end(data);
    }
    const form = await new Request(this.url, {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: new Uint8Array(body),
    }).formData();
    const file = form.get('file') as Blob;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, new Uint8Array(await file.arrayBuffer()));
    send(res, 200, [{ name: posix.basename(path), type: 'file', path }]);
  }

  /** Server streaming in Connect's JSON envelope: start, the output as it comes, end, then the end-of-stream frame. */
  private startProcess(body: Buffer, res: ServerResponse): void {
    const request = JSON.parse(body.subarray(5).toString()) as {
      process: { cmd: string; args?: string[]; envs?: Record<string, string>; cwd?: string };
    };
    const { cmd, args = [], envs = {}, cwd } = request.process;
    this.started.push([cmd, ...args].join(' '));
    const child = spawn(
      cmd,
      args.filter((a) => a !== '-l'),
      {
        cwd: cwd || '/',
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...envs },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const pid = child.pid ?? 0;
    this.processes.set(pid, child);
    res.writeHead(200, { 'content-type': 'application/connect+json' });
    const frame = (message: unknown, flags = 0) => {
      const json = Buffer.from(JSON.stringify(message));
      const header = Buffer.alloc(5);
      header.writeUInt8(flags, 0);
      header.writeUInt32BE(json.byteLength, 1);
      res.write(Buffer.concat([header, json]));
    };
    frame({ event: { start: { pid } } });
    child.stdout?.on('data', (d: Buffer) => frame({ event: { data: { stdout: d.toString('base64') } } }));
    child.stderr?.on('data', (d: Buffer) => frame({ event: { data: { stderr: d.toString('base64') } } }));
    child.on('close', (code, signal) => {
      this.processes.delete(pid);
      const exitCode = code ?? -1;
      frame({
        event: {
          end: {
            exitCode,
            exited: code !== null,
            status: signal ? `signal: ${signal}` : `exit status ${exitCode}`,
          },
        },
      });
      frame({}, 2);
      res.end();
    });
  }
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) return void res.writeHead(status).end();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-(child.pid ?? 0), 'SIGKILL');
  } catch {
    // already gone
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function entry(path: string) {
  const s = await stat(path).catch(() => {
    throw new ConnectError('not_found', `path '${path}' does not exist`);
  });
  return {
    name: posix.basename(path),
    type: s.isDirectory() ? 'FILE_TYPE_DIRECTORY' : 'FILE_TYPE_FILE',
    path,
    size: String(s.size),
    mode: s.mode & 0o777,
    permissions: '',
    owner: 'user',
    group: 'user',
    modifiedTime: s.mtime.toISOString(),
  };
}

async function list(path: string, depth: number): Promise<unknown[]> {
  const out: unknown[] = [];
  const walk = async (dir: string, left: number): Promise<void> => {
    for (const name of await readdir(dir)) {
      const child = posix.join(dir, name);
      const info = await entry(child);
      out.push(info);
      if (info.type === 'FILE_TYPE_DIRECTORY' && left > 1) await walk(child, left - 1);
    }
  };
  await entry(path);
  await walk(path, depth);
  return out;
}

/** The session a sandbox creation names in its metadata, if it names one. */
function sessionOfCreation(body: Buffer): { sessionId?: string } {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { metadata?: { agentrySession?: unknown } };
    const sessionId = parsed.metadata?.agentrySession;
    return typeof sessionId === 'string' ? { sessionId } : {};
  } catch {
    return {};
  }
}
