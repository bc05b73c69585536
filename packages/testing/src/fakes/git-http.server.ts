import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/**
 * A real git smart-HTTP server on loopback: `git http-backend` (CGI) behind a node server that requires
 * a token as HTTP basic (any user name) or bearer auth. It serves one repository, `<name>.git`, with one
 * commit holding the given files.
 */
export class GitHttpServer {
  private constructor(
    /** The Authorization headers received, in order (to check what credentials clients sent). */
    readonly authorizations: Array<string | undefined>,
    private readonly server: Server,
    private readonly root: string,
    readonly url: string,
    readonly headCommit: string,
  ) {}

  static async start(options: {
    name: string;
    token: string;
    files: Record<string, string>;
    branch?: string;
  }): Promise<GitHttpServer> {
    const root = mkdtempSync(join(tmpdir(), 'agentry-git-'));
    const work = join(root, 'work');
    const bare = join(root, 'repos', `${options.name}.git`);
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      })
        .toString()
        .trim();
    execFileSync('mkdir', ['-p', work, join(root, 'repos')]);
    git(work, 'init', '--quiet', '--initial-branch', options.branch ?? 'main');
    for (const [path, content] of Object.entries(options.files)) writeFileSync(join(work, path), content);
    git(work, 'add', '.');
    git(
      work,
      '-c',
      'user.name=Test',
      '-c',
      'user.email=test@example.com',
      'commit',
      '--quiet',
      '-m',
      'initial',
    );
    const head = git(work, 'rev-parse', 'HEAD');
    git(root, 'clone', '--quiet', '--bare', work, bare);

    const authorizations: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      if (!authorized(req.headers.authorization, options.token)) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('token required');
        return;
      }
      serveCgi(join(root, 'repos'), req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new GitHttpServer(
      authorizations,
      server,
      root,
      `http://127.0.0.1:${port}/acme/${options.name}.git`,
      head,
    );
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.root, { recursive: true, force: true });
  }
}

function authorized(header: string | undefined, token: string): boolean {
  if (!header) return false;
  if (header === `Bearer ${token}`) return true;
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

/** Runs git http-backend for one request (`/acme/<name>.git/...` is served from `<root>/<name>.git`). */
function serveCgi(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const child = spawn(HTTP_BACKEND, [], {
    env: {
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: url.pathname.replace(/^\/acme/, ''),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: 'agentry',
      REMOTE_ADDR: '127.0.0.1',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      ...(req.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) }
        : {}),
    },
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
      const [name, ...rest] = line.split(':');
      const value = rest.join(':').trim();
      if (name!.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name!, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => res.end());
  child.on('error', () => res.writeHead(500).end());
}
