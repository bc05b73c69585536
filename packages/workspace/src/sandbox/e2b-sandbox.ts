import { posix } from 'node:path';
import { AppError } from '@agentry/contracts';
import { Sandbox } from 'e2b';
import type { ExecOptions, ExecResult, FileStat, SandboxFs } from '../port.js';
import { BaseWorkspaceFs, type BaseWorkspaceOptions } from '../core/base-workspace-fs.js';
import { KeyedMutex } from '../core/keyed-mutex.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { ancestorPaths, isWithinPath, parentPath } from '../path/path-guard.js';
import type { E2bEntry, E2bSandboxHandle } from './e2b-handle.js';
import { execInE2b } from './e2b-exec.js';

export interface E2bConnection {
  apiKey?: string;
  /** Control-plane URL of a self-hosted E2B (default https://api.<domain>). */
  apiUrl?: string;
  domain?: string;
  /** envd URL override (self-hosted or local development). */
  sandboxUrl?: string;
  debug?: boolean;
  requestTimeoutMs?: number;
}

export interface E2bSandboxOptions extends BaseWorkspaceOptions {
  /** Workspace directory inside the sandbox (default /home/user/workspace). */
  workdir?: string;
  defaultTimeoutMs?: number;
  defaultMaxOutputBytes?: number;
  /** What dispose() does with the sandbox: kill it (default), pause it for a later connect, or keep it running. */
  onDispose?: 'kill' | 'pause' | 'keep';
}

export interface E2bCreateOptions extends E2bConnection, E2bSandboxOptions {
  template?: string;
  /** Sandbox lifetime on the E2B side. */
  sandboxTimeoutMs?: number;
  metadata?: Record<string, string>;
  /** Outbound internet from the sandbox (default false). */
  allowInternetAccess?: boolean;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const isNotFound = (error: unknown) =>
  (error as { name?: string })?.name === 'NotFoundError' ||
  (error as { name?: string })?.name === 'FileNotFoundError';

/**
 * A sandbox in E2B (cloud or self-hosted). Files go through envd's filesystem API, commands through its
 * process API. E2B has no file versions, so a version is mtime, size and a per-instance write counter;
 * CAS and append are serialized within this instance (one instance per session).
 */
export class E2bSandbox extends BaseWorkspaceFs implements SandboxFs {
  readonly workdir: string;
  private readonly locks = new KeyedMutex();
  private readonly generations = new Map<string, number>();
  private readonly running = new Set<() => void>();
  private workdirReady: Promise<unknown> | undefined;
  private disposed = false;

  constructor(
    readonly sandbox: E2bSandboxHandle,
    private readonly options: E2bSandboxOptions = {},
  ) {
    super(options);
    this.workdir = options.workdir ?? '/home/user/workspace';
  }

  static async create(options: E2bCreateOptions = {}): Promise<E2bSandbox> {
    const sandbox = await Sandbox.create({
      ...connection(options),
      template: options.template,
      timeoutMs: options.sandboxTimeoutMs,
      metadata: options.metadata,
      allowInternetAccess: options.allowInternetAccess ?? false,
    });
    return new E2bSandbox(sandbox, options);
  }

  /**
   * Reconnects to a running or paused sandbox (a paused one resumes). `sandboxTimeoutMs` extends its
   * lifetime on the E2B side from now (E2B only ever lengthens it on connect).
   */
  static async connect(
    sandboxId: string,
    options: E2bConnection & E2bSandboxOptions & { sandboxTimeoutMs?: number } = {},
  ): Promise<E2bSandbox> {
    const lifetime = options.sandboxTimeoutMs ? { timeoutMs: options.sandboxTimeoutMs } : {};
    return new E2bSandbox(await Sandbox.connect(sandboxId, { ...connection(options), ...lifetime }), options);
  }

  /** Kills a sandbox without connecting to it (its holder is gone); false when it was not there. */
  static killById(sandboxId: string, options: E2bConnection = {}): Promise<boolean> {
    return Sandbox.kill(sandboxId, connection(options));
  }

  get sandboxId(): string {
    return this.sandbox.sandboxId;
  }

  pause(): Promise<boolean> {
    return this.sandbox.pause();
  }

  kill(): Promise<boolean> {
    return this.sandbox.kill();
  }

  private abs(path: string): string {
    return path === '' ? this.workdir : posix.join(this.workdir, path);
  }

  private rel(absolute: string): string {
    return absolute === this.workdir ? '' : absolute.slice(this.workdir.length + 1).normalize('NFC');
  }

  protected override async confine(): Promise<void> {
    this.workdirReady ??= this.sandbox.files.makeDir(this.workdir).catch((error: unknown) => {
      this.workdirReady = undefined;
      throw mapE2bError(error, '');
    });
    await this.workdirReady;
  }

  private toStat(path: string, entry: E2bEntry): FileStat {
    const kind = entry.type === 'dir' ? 'directory' : 'file';
    const mtime = entry.modifiedTime ?? new Date(0);
    const version =
      kind === 'directory'
        ? '0'
        : `${mtime.getTime().toString(36)}.${entry.size.toString(36)}.${this.generations.get(path) ?? 0}`;
    return { path, kind, size: kind === 'directory' ? 0 : entry.size, version, modifiedAt: mtime };
  }

  private bump(path: string): void {
    this.generations.set(path, (this.generations.get(path) ?? 0) + 1);
  }

  protected async statAt(path: string): Promise<FileStat | null> {
    try {
      return this.toStat(path, await this.sandbox.files.getInfo(this.abs(path)));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw mapE2bError(error, path);
    }
  }

  protected async readAt(path: string): Promise<Uint8Array> {
    const stat = await this.statAt(path);
    if (!stat) throw WorkspaceErrors.notFound(path);
    if (stat.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
    return this.sandbox.files
      .read(this.abs(path), { format: 'bytes' })
      .catch((error: unknown) => Promise.reject(mapE2bError(error, path)));
  }

  private async checkParents(path: string, createParents: boolean): Promise<void> {
    for (const ancestor of ancestorPaths(path)) {
      const stat = await this.statAt(ancestor);
      if (stat?.kind === 'file') throw WorkspaceErrors.notDirectory(ancestor);
      if (!stat) {
        if (!createParents) throw WorkspaceErrors.notFound(parentPath(path));
        return; // envd creates missing parents on write
      }
    }
  }

  private async put(path: string, content: Uint8Array): Promise<FileStat> {
    const data = content.buffer.slice(
      content.byteOffset,
      content.byteOffset + content.byteLength,
    ) as ArrayBuffer;
    await this.sandbox.files
      .write(this.abs(path), data)
      .catch((error: unknown) => Promise.reject(mapE2bError(error, path)));
    this.bump(path);
    return (await this.statAt(path)) ?? Promise.reject(WorkspaceErrors.notFound(path));
  }

  protected writeAt(
    path: string,
    content: Uint8Array,
    ifVersion: string | null | undefined,
    createParents: boolean,
  ): Promise<FileStat> {
    return this.locks.run(path, async () => {
      this.checkWrite(path, await this.statAt(path), ifVersion);
      await this.checkParents(path, createParents);
      return this.put(path, content);
    });
  }

  protected appendAt(path: string, content: Uint8Array): Promise<FileStat> {
    return this.locks.run(path, async () => {
      const current = await this.statAt(path);
      if (current?.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
      const size = (current?.size ?? 0) + content.byteLength;
      if (size > this.maxFileBytes) throw WorkspaceErrors.tooLarge(path, size, this.maxFileBytes);
      if (!current) await this.checkParents(path, true);
      const before = current ? await this.readAt(path) : new Uint8Array();
      const merged = new Uint8Array(size);
      merged.set(before);
      merged.set(content, before.byteLength);
      return this.put(path, merged);
    });
  }

  protected async listAt(path: string, recursive: boolean): Promise<FileStat[]> {
    const dir = await this.statAt(path);
    if (!dir) throw WorkspaceErrors.notFound(path);
    if (dir.kind !== 'directory') throw WorkspaceErrors.notDirectory(path);
    const entries = await this.sandbox.files
      .list(this.abs(path), { depth: recursive ? 64 : 1 })
      .catch((error: unknown) => Promise.reject(mapE2bError(error, path)));
    return entries
      .filter((e) => e.path.startsWith(`${this.workdir}/`))
      .map((e) => this.toStat(this.rel(e.path), e))
      .filter((s) => s.path !== path && isWithinPath(s.path, path))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  protected moveAt(from: string, to: string, overwrite: boolean): Promise<void> {
    return this.locks.run(to, async () => {
      const source = await this.statAt(from);
      if (!source) throw WorkspaceErrors.notFound(from);
      const existing = await this.statAt(to);
      if (existing && (!overwrite || existing.kind === 'directory' || source.kind === 'directory'))
        throw WorkspaceErrors.exists(to);
      await this.checkParents(to, true);
      if (!(await this.statAt(parentPath(to)))) await this.sandbox.files.makeDir(this.abs(parentPath(to)));
      if (existing) await this.sandbox.files.remove(this.abs(to));
      await this.sandbox.files
        .rename(this.abs(from), this.abs(to))
        .catch((error: unknown) => Promise.reject(mapE2bError(error, to)));
      this.bump(to);
    });
  }

  protected async deleteAt(path: string, recursive: boolean): Promise<void> {
    const stat = await this.statAt(path);
    if (!stat) throw WorkspaceErrors.notFound(path);
    if (stat.kind === 'directory' && !recursive && (await this.listAt(path, false)).length > 0)
      throw WorkspaceErrors.notEmpty(path);
    await this.sandbox.files
      .remove(this.abs(path))
      .catch((error: unknown) => Promise.reject(mapE2bError(error, path)));
  }

  protected async mkdirAt(path: string): Promise<void> {
    const stat = await this.statAt(path);
    if (stat?.kind === 'directory') return;
    if (stat) throw WorkspaceErrors.exists(path);
    await this.checkParents(path, true);
    await this.sandbox.files
      .makeDir(this.abs(path))
      .catch((error: unknown) => Promise.reject(mapE2bError(error, path)));
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.disposed) throw new AppError('UNAVAILABLE', 'Sandbox has been disposed');
    const cwd = await this.resolve(options.cwd ?? '');
    const dir = await this.statAt(cwd);
    if (!dir) throw WorkspaceErrors.notFound(cwd);
    if (dir.kind !== 'directory') throw WorkspaceErrors.notDirectory(cwd);
    const env = { HOME: this.workdir, ...options.env };
    for (const key of Object.keys(env))
      if (!ENV_NAME.test(key)) throw WorkspaceErrors.invalid(`Invalid environment variable name: ${key}`);
    const request = {
      command,
      cwd: this.abs(cwd),
      env,
      timeoutMs: options.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000,
      maxOutputBytes: options.maxOutputBytes ?? this.options.defaultMaxOutputBytes ?? 1024 * 1024,
      signal: options.signal,
      stdin: options.stdin,
    };
    return execInE2b(this.sandbox, request, (kill) => {
      this.running.add(kill);
      return () => this.running.delete(kill);
    }).catch((error: unknown) => Promise.reject(mapE2bError(error, cwd)));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const kill of [...this.running]) kill();
    const action = this.options.onDispose ?? 'kill';
    if (action === 'kill') await this.sandbox.kill().catch(() => false);
    else if (action === 'pause') await this.sandbox.pause();
  }
}

function connection(options: E2bConnection) {
  return {
    apiKey: options.apiKey,
    apiUrl: options.apiUrl,
    domain: options.domain,
    sandboxUrl: options.sandboxUrl,
    debug: options.debug,
    requestTimeoutMs: options.requestTimeoutMs,
  };
}

function mapE2bError(error: unknown, path: string): AppError {
  if (error instanceof AppError) return error;
  if (isNotFound(error)) return WorkspaceErrors.notFound(path);
  const name = (error as { name?: string })?.name ?? 'Error';
  const retryable = name === 'TimeoutError' || name === 'RateLimitError' || name === 'ServiceBusyError';
  return new AppError(
    retryable ? 'UNAVAILABLE' : 'TOOL_FAILED',
    `E2B ${name}: ${String((error as Error)?.message ?? error)}`,
    { cause: error, retryable },
  );
}
