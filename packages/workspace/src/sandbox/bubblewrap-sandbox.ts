import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { AppError } from '@agentry/contracts';
import type { ExecOptions, ExecResult, SandboxFs } from '../port.js';
import { LocalWorkspaceFs, type LocalWorkspaceOptions } from '../local/local-workspace-fs.js';
import { settle } from '../core/settle.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { buildBwrapArgv, type SandboxBind, type SandboxLimits } from './bwrap-args.js';
import { killGroup, ProcessRunner } from './process-runner.js';

export interface BubblewrapSandboxOptions extends LocalWorkspaceOptions {
  bwrapPath?: string;
  prlimitPath?: string;
  /** Where the root appears inside the sandbox (default /workspace). */
  mountPoint?: string;
  /** Share the host network namespace (default false: no network at all). */
  network?: boolean;
  /**
   * Identity of commands inside a new user namespace (default uid/gid 1000, so a sandbox started by root
   * is not root inside). null keeps the caller's identity, for hosts without user namespaces.
   */
  identity?: { uid: number; gid: number } | null;
  defaultTimeoutMs?: number;
  defaultMaxOutputBytes?: number;
  limits?: SandboxLimits;
  /** Base environment of every command (the host environment is never passed through). */
  env?: Record<string, string>;
  /** Extra host paths made visible read-only (e.g. a toolchain under /opt). */
  readOnlyBinds?: string[];
  /** Extra host paths bound at another place inside (state directories, sockets). */
  binds?: SandboxBind[];
  /** Size cap of the private /tmp (memory-backed). */
  tmpfsBytes?: number;
  /** cgroup directories every command joins (the session's process, memory and CPU caps). */
  cgroups?: readonly string[];
  /** The root filesystem commands see (the platform's userland); unset: the host's /usr, read-only. */
  rootfs?: string;
  /** The shell commands run in (default /bin/sh). */
  shell?: string;
}

/** The environment bwrap itself starts with; the sandbox's own is set inside. */
const HOST_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULT_LIMITS: SandboxLimits = { fileSizeBytes: 1024 * 1024 * 1024, openFiles: 1024 };

/**
 * A sandbox on this host: each exec runs in a fresh bubblewrap container (own mount, pid, network, ipc,
 * uts namespaces; read-only system; only the workspace root writable). File operations are the
 * local-directory backend on the same root, so the host side and the command see the same files.
 */
export class BubblewrapSandbox extends LocalWorkspaceFs implements SandboxFs {
  private readonly runner = new ProcessRunner();
  private readonly config: Required<
    Omit<BubblewrapSandboxOptions, keyof LocalWorkspaceOptions | 'tmpfsBytes' | 'cgroups' | 'rootfs'>
  > &
    Pick<BubblewrapSandboxOptions, 'tmpfsBytes' | 'cgroups' | 'rootfs'>;
  private disposed = false;
  private extraBinds: SandboxBind[] = [];
  /** Kills of the long-lived commands started with `spawn` that still run. */
  private readonly spawned = new Set<() => void>();

  constructor(options: BubblewrapSandboxOptions) {
    super(options);
    this.config = {
      bwrapPath: options.bwrapPath ?? '/usr/bin/bwrap',
      prlimitPath: options.prlimitPath ?? '/usr/bin/prlimit',
      mountPoint: options.mountPoint ?? '/workspace',
      network: options.network ?? false,
      identity: options.identity === undefined ? { uid: 1000, gid: 1000 } : options.identity,
      defaultTimeoutMs: options.defaultTimeoutMs ?? 60_000,
      defaultMaxOutputBytes: options.defaultMaxOutputBytes ?? 1024 * 1024,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      env: options.env ?? {},
      readOnlyBinds: options.readOnlyBinds ?? [],
      binds: options.binds ?? [],
      shell: options.shell ?? '/bin/sh',
      ...(options.tmpfsBytes !== undefined ? { tmpfsBytes: options.tmpfsBytes } : {}),
      ...(options.cgroups !== undefined ? { cgroups: options.cgroups } : {}),
      ...(options.rootfs !== undefined ? { rootfs: options.rootfs } : {}),
    };
  }

  /**
   * Binds added after the fixed ones for the commands started from now on (writable trees inside a
   * read-only bind, such as a memory store mounted read-write under /mnt).
   */
  setExtraBinds(binds: readonly SandboxBind[]): void {
    this.extraBinds = [...binds];
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const argv = await this.argvFor(command, options.cwd, options.env);
    return this.runner.run(argv, {
      env: HOST_ENV,
      timeoutMs: options.timeoutMs ?? this.config.defaultTimeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? this.config.defaultMaxOutputBytes,
      signal: options.signal,
      stdin: options.stdin,
    });
  }

  /**
   * Starts a long-lived command in a fresh sandbox of the same kind as `exec` (same binds, limits and
   * network), with its stdio left to the caller: a stdio server the session talks to. It has no timeout;
   * killing it or `dispose` ends it with everything it started.
   */
  async spawn(
    command: string,
    options: { cwd?: string; env?: Record<string, string> } = {},
  ): Promise<ChildProcessWithoutNullStreams> {
    const argv = await this.argvFor(command, options.cwd, options.env);
    const [file, ...args] = argv;
    const child = spawn(file!, args, { env: HOST_ENV, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const kill = () => killGroup(child.pid);
    this.spawned.add(kill);
    child.once('exit', () => this.spawned.delete(kill));
    return child;
  }

  private async argvFor(
    command: string,
    cwdOption: string | undefined,
    extraEnv: Record<string, string> | undefined,
  ): Promise<string[]> {
    if (this.disposed) throw new AppError('UNAVAILABLE', 'Sandbox has been disposed');
    const cwd = await this.resolve(cwdOption ?? '');
    await this.ensureRoot();
    const dir = await this.stat(cwd);
    if (!dir) throw WorkspaceErrors.notFound(cwd);
    if (dir.kind !== 'directory') throw WorkspaceErrors.notDirectory(cwd);
    const { mountPoint } = this.config;
    const env: Record<string, string> = {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: mountPoint,
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      ...this.config.env,
      ...extraEnv,
    };
    for (const key of Object.keys(env))
      if (!ENV_NAME.test(key)) throw WorkspaceErrors.invalid(`Invalid environment variable name: ${key}`);
    return buildBwrapArgv({
      ...this.config,
      binds: [...this.config.binds, ...this.extraBinds],
      hostRoot: this.root,
      cwd: cwd === '' ? mountPoint : `${mountPoint}/${cwd}`,
      env,
      command,
    });
  }

  /** Kills every running command; the root directory and its files stay (they are the session's state). */
  dispose(): Promise<void> {
    return settle(() => {
      this.disposed = true;
      this.runner.killAll();
      for (const kill of [...this.spawned]) kill();
    });
  }
}
