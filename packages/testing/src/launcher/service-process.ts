import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import getPort from 'get-port';
import { pollUntil } from '../time/poll-until.js';

export const SERVICES = ['control', 'dataplane', 'worker', 'scheduler', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The exit code of a service that could not take its port (bootstrapService; Linux's EADDRINUSE). */
const EXIT_PORT_IN_USE = 98;
/** Probes answer with the pid of the process that answered. */
const PROBE_PID_HEADER = 'agentry-pid';
/** How many times a start moves to a new port after finding its port taken. */
const PORT_RETRIES = 3;

/** The port picked for a service was taken by another process before the service could bind it. */
class PortTaken extends Error {}

/** One service as a real OS process, its output kept in a log file for post-mortems. */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;
  private exited: Promise<void> = Promise.resolve();
  private overrides: Record<string, string | undefined> = {};

  constructor(
    readonly name: ServiceName,
    private currentPort: number,
    private root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logFile: string,
    private readonly nodeArgs: string[] = [],
  ) {}

  /** The OS process id while running (for CPU and memory readings from /proc). */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** A start that found its port taken moves to another one, so read it after the service is ready. */
  get port(): number {
    return this.currentPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The tree whose `apps/<name>/dist` the process runs: the repository's, or another release's build. */
  get buildRoot(): string {
    return this.root;
  }

  /** Later starts run the build of the tree at `root` (a rolling upgrade starts the new build on the same port). */
  runFrom(root: string): void {
    this.root = root;
  }

  /** `overrides` change this start's environment only; an undefined value removes the variable. */
  start(overrides: Record<string, string | undefined> = {}): void {
    if (this.running) return;
    this.overrides = overrides;
    const env: NodeJS.ProcessEnv = { ...this.env, ...overrides, PORT: String(this.port) };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    this.log = createWriteStream(this.logFile, { flags: 'a' });
    const dist = join(this.root, 'apps', this.name, 'dist');
    const child = spawn(
      process.execPath,
      [
        ...this.nodeArgs,
        '--enable-source-maps',
        '--import',
        join(dist, 'instrument.js'),
        join(dist, 'main.js'),
      ],
      {
        cwd: this.root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.child = child;
  }

  /**
   * Waits until this process answers its readiness probe. Ports are picked free and bound later, so another
   * process (a service of a test running alongside) can take one first: the service then exits with
   * EXIT_PORT_IN_USE and is started again on a new port.
   */
  async waitReady(timeoutMs: number): Promise<void> {
    for (let retry = 0; ; retry += 1) {
      try {
        await this.pollReady(timeoutMs);
        return;
      } catch (error) {
        if (!(error instanceof PortTaken) || retry === PORT_RETRIES) throw error;
        this.currentPort = await getPort({ host: '127.0.0.1' });
        this.start(this.overrides);
      }
    }
  }

  private async pollReady(timeoutMs: number): Promise<void> {
    await pollUntil(
      `${this.name} to be ready; see ${this.logFile}`,
      async () => {
        if (!this.running) {
          if (this.child?.exitCode === EXIT_PORT_IN_USE)
            throw new PortTaken(`${this.name}: port ${this.port} was taken; see ${this.logFile}`);
          throw new Error(`${this.name} exited during start-up; see ${this.logFile}`);
        }
        // Not listening yet counts as not ready.
        const response = await fetch(`${this.url}/readyz`).catch(() => undefined);
        if (!response) return false;
        // Another process holds the port: ours will fail to bind it and exit. (A release that does not name
        // its pid is taken at its word.)
        const pid = response.headers.get(PROBE_PID_HEADER);
        if (pid !== null && pid !== String(this.child?.pid)) return false;
        return response.ok;
      },
      timeoutMs,
    );
  }

  /** SIGKILL simulates a crash: no shutdown hooks, leases left to expire. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.running) return;
    this.child?.kill(signal);
    await this.exited;
  }

  /** SIGSTOP: the process freezes (a long GC pause, a stopped VM) with its sockets and leases still held. */
  pause(): void {
    if (this.running) this.child?.kill('SIGSTOP');
  }

  /** SIGCONT: a paused process goes on as if no time had passed, with whatever it held then. */
  resume(): void {
    if (this.running) this.child?.kill('SIGCONT');
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.running) return;
    // A paused process handles no signal but SIGKILL until it is resumed.
    this.child?.kill('SIGCONT');
    this.child?.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    this.log?.end();
  }
}
