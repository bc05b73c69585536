import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { connect } from 'node:net';
import { pollUntil } from '../time/poll-until.js';

export interface OwnedProcessSpec {
  command: string;
  args: string[];
  port: number;
  logFile: string;
  /** Run as this user (uid, gid) when the test runs as root and the server refuses root. */
  user?: { uid: number; gid: number };
}

/**
 * A backing server (NATS, Redis, Postgres) run by a test on its own port, so the test may stop and
 * restart it without touching the machine's shared instance on the standard port.
 */
export class OwnedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly spec: OwnedProcessSpec) {}

  get port(): number {
    return this.spec.port;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGSTOP: the server freezes with its sockets open; clients see no error, only silence. */
  pause(): void {
    if (this.running) this.child?.kill('SIGSTOP');
  }

  /** SIGCONT: a paused server goes on with the connections it held. */
  resume(): void {
    if (this.running) this.child?.kill('SIGCONT');
  }

  async start(timeoutMs = 20_000): Promise<void> {
    if (this.running) return;
    const log = createWriteStream(this.spec.logFile, { flags: 'a' });
    const child = spawn(this.spec.command, this.spec.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.spec.user ? { uid: this.spec.user.uid, gid: this.spec.user.gid } : {}),
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.child = child;
    await waitForPort(this.spec.port, timeoutMs, () => this.running);
  }

  /** Stops the server with `signal` and waits until it has exited and its port is closed. */
  async stop(signal: NodeJS.Signals = 'SIGKILL', timeoutMs = 20_000): Promise<void> {
    if (!this.running) return;
    // A paused server handles no signal but SIGKILL until it is resumed.
    this.child?.kill('SIGCONT');
    this.child?.kill(signal);
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

async function waitForPort(port: number, timeoutMs: number, alive: () => boolean): Promise<void> {
  await pollUntil(
    `a listener on port ${port}`,
    () => {
      if (!alive()) throw new Error(`server for port ${port} exited during start-up`);
      return canConnect(port);
    },
    timeoutMs,
    { everyMs: 50 },
  );
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
