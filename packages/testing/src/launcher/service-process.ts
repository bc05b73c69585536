import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { pollUntil } from '../time/poll-until.js';

export const SERVICES = ['control', 'dataplane', 'worker', 'scheduler', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** One service as a real OS process, its output kept in a log file for post-mortems. */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly name: ServiceName,
    readonly port: number,
    private root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logFile: string,
    private readonly nodeArgs: string[] = [],
  ) {}

  /** The OS process id while running (for CPU and memory readings from /proc). */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
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

  async waitReady(timeoutMs: number): Promise<void> {
    await pollUntil(
      `${this.name} to be ready; see ${this.logFile}`,
      async () => {
        if (!this.running) throw new Error(`${this.name} exited during start-up; see ${this.logFile}`);
        // Not listening yet counts as not ready.
        return (await fetch(`${this.url}/readyz`).catch(() => undefined))?.ok;
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
