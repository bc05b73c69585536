import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { AppError } from '@agentry/contracts';
import type { ExecOptions, ExecResult, SandboxFs } from '../port.js';
import { LocalWorkspaceFs, type LocalWorkspaceOptions } from '../local/local-workspace-fs.js';
import { settle } from '../core/settle.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { buildBwrapArgv, type SandboxBind, type SandboxLimits } from './bwrap-args.js';
import { killGroup, ProcessRunner } from './process-runner.js';
import { SandboxSupervisor, type SupervisedRun } from './sandbox-supervisor.js';
import { supervisorScript } from './supervisor-script.js';

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
  /** The kept sandbox (see `runKept`), with the extra binds it was started with. */
  private kept: { supervisor: Promise<SandboxSupervisor>; binds: string } | null = null;
  /** What the kept sandbox runs: `setup` once, `program` for each call (see `keep`); null: none is kept. */
  private keptScript: { setup: string; program: string } | null = null;

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

  /**
   * From now on, `runKept` runs its calls in one bubblewrap kept for many calls, started now: its first
   * process runs `setup` once (e.g. a forwarder every call reaches), then `program` (a bash program that
   * reads the call's input as its stdin) for each call.
   */
  keep(setup: string, program: string): void {
    this.keptScript = { setup, program };
    if (this.disposed || this.kept) return;
    this.startKept().supervisor.catch(() => undefined); // the first call starts it again and says why
  }

  /**
   * Runs the kept program for one call in the kept sandbox, started now if it is not running (or was
   * started with other extra binds): no new bubblewrap, cgroup join or limits per call, as they hold for
   * the whole sandbox. Each call runs in its own process group, killed on timeout or abort and when the
   * call ends. `replaced`: the kept sandbox had died since the last call (killed, out of memory), and what
   * ran in it with it. Null when it cannot take the call now (another call runs in it, it cannot start,
   * `keep` was not called): `exec` then.
   */
  async runKept(
    options: Omit<SupervisedRun, 'timeoutMs' | 'maxOutputBytes'> &
      Partial<Pick<SupervisedRun, 'timeoutMs' | 'maxOutputBytes'>>,
  ): Promise<{ result: ExecResult; replaced: boolean } | null> {
    if (!this.keptScript || this.disposed) return null;
    for (const key of Object.keys(options.env))
      if (!ENV_NAME.test(key)) throw WorkspaceErrors.invalid(`Invalid environment variable name: ${key}`);
    let replaced = false;
    if (this.kept && this.kept.binds !== bindsKey(this.extraBinds)) this.stopKept();
    if (this.kept) {
      const running = await this.kept.supervisor.catch(() => null);
      if (running?.busy) return null;
      // Gone since the last call (killed, out of memory): what ran in it is gone too.
      if (running && !running.alive) replaced = true;
      if (!running?.alive) this.kept = null;
    }
    // One that cannot start leaves the call to `exec`, which says why if it fails too.
    const supervisor = await (this.kept ?? this.startKept()).supervisor.catch(() => null);
    if (!supervisor || supervisor.busy) return null;
    const result = await supervisor.run({
      stdin: options.stdin,
      env: options.env,
      timeoutMs: options.timeoutMs ?? this.config.defaultTimeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? this.config.defaultMaxOutputBytes,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { result, replaced };
  }

  private startKept(): { supervisor: Promise<SandboxSupervisor> } {
    const { setup, program } = this.keptScript!;
    const binds = bindsKey(this.extraBinds);
    const supervisor = this.argvFor(supervisorScript(setup, program), undefined, undefined).then((argv) =>
      SandboxSupervisor.start(argv, HOST_ENV),
    );
    const kept = { supervisor, binds };
    this.kept = kept;
    // A failed start is forgotten, so the next call tries again.
    supervisor.catch(() => {
      if (this.kept === kept) this.kept = null;
    });
    return kept;
  }

  /** Kills the kept sandbox with everything running in it; the next call starts a new one. */
  restartKept(): void {
    this.stopKept();
  }

  private stopKept(): void {
    void this.kept?.supervisor.then((s) => s.kill()).catch(() => undefined);
    this.kept = null;
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

  /**
   * Kills every running command; the root directory and its files stay (they are the session's state).
   * Resolves once the kept sandbox is gone, so its cgroup and mounts can be removed after it.
   */
  async dispose(): Promise<void> {
    const kept = this.kept?.supervisor.catch(() => null);
    await settle(() => {
      this.disposed = true;
      this.runner.killAll();
      this.stopKept();
      for (const kill of [...this.spawned]) kill();
    });
    await (
      await kept
    )?.exited;
  }
}

function bindsKey(binds: readonly SandboxBind[]): string {
  return JSON.stringify(binds);
}
