import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { AppError } from '@agentry/contracts';
import type { ExecResult } from '../port.js';
import { captureExec } from './output-collector.js';
import { ABORT_EXIT_CODE, killGroup, TIMEOUT_EXIT_CODE } from './process-runner.js';
import { quote } from './supervisor-script.js';

export interface SupervisedRun {
  /** What the sandbox's program reads as its stdin (up to a first NUL), a newline appended. */
  stdin: string;
  /** Exported for this call only, before `program` runs. */
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

/** After a kill is asked for, how long the call has to end before the whole sandbox is killed instead. */
const KILL_GRACE_MS = 3_000;
const KILL_RETRY_MS = 500;

/**
 * The host's side of one kept sandbox: the bubblewrap process whose first process is the supervisor
 * (supervisor-script.ts), and the one call it runs at a time.
 */
export class SandboxSupervisor {
  private readonly status: Readable;
  private readonly requests: Writable;
  private statusBuffer = '';
  private ended = false;
  private current: { onOutput: (chunk: Buffer) => void; onPid: (pid: number) => void } | null = null;
  private readonly exitListeners = new Set<() => void>();

  private constructor(private readonly child: ChildProcess) {
    this.status = child.stdio[3] as Readable;
    this.requests = child.stdin!;
    this.requests.on('error', () => undefined); // a dead supervisor is found by its exit
    child.stdout!.on('data', (chunk: Buffer) => this.current?.onOutput(chunk));
    child.stderr!.resume();
    this.status.on('data', (chunk: Buffer) => this.onStatus(chunk.toString('utf8')));
    child.once('exit', () => {
      this.ended = true;
      for (const listener of [...this.exitListeners]) listener();
    });
  }

  /** Starts `argv` (a bubblewrap command running supervisorScript) and resolves once it is ready. */
  static start(argv: string[], env: Record<string, string>): Promise<SandboxSupervisor> {
    const [file, ...args] = argv;
    const child = spawn(file!, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const supervisor = new SandboxSupervisor(child);
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        supervisor.kill();
        reject(new AppError('UNAVAILABLE', `Cannot start the sandbox: ${error.message}`, { cause: error }));
      };
      child.once('error', failed);
      const onExit = () => failed(new Error('it exited before it was ready'));
      supervisor.exitListeners.add(onExit);
      supervisor.onReady = () => {
        supervisor.exitListeners.delete(onExit);
        child.off('error', failed);
        resolve(supervisor);
      };
    });
  }

  private onReady: () => void = () => undefined;

  /** Resolves once the sandbox has exited (at most a few seconds after `kill`). */
  get exited(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.exitListeners.delete(done);
        resolve();
      };
      // A sandbox stuck in the kernel is not waited for forever.
      const timer = setTimeout(done, KILL_GRACE_MS);
      this.exitListeners.add(done);
    });
  }

  get alive(): boolean {
    return !this.ended;
  }

  get busy(): boolean {
    return this.current !== null;
  }

  /** Kills the sandbox and everything in it. */
  kill(): void {
    killGroup(this.child.pid);
  }

  run(call: SupervisedRun): Promise<ExecResult> {
    if (this.current) throw new Error('the kept sandbox runs one call at a time');
    const { stdout, result } = captureExec(call.maxOutputBytes, Date.now());
    if (call.signal?.aborted) return Promise.resolve(result(ABORT_EXIT_CODE, false, true));
    // A NUL ends each part of the request (as it would end a variable or an argument anyway).
    const exports = Object.entries(call.env).map(
      ([key, value]) => `export ${key}=${quote(upToNul(value))}\n`,
    );
    const end = `agentry-end-${randomBytes(16).toString('hex')}`;
    const marker = Buffer.from(`${end} `);
    return new Promise<ExecResult>((resolve) => {
      let pending = Buffer.alloc(0);
      let pid: number | undefined;
      let stop: 'timeout' | 'abort' | null = null;
      let killTimer: NodeJS.Timeout | undefined;
      const askKill = () => {
        if (pid !== undefined) this.requests.write(`kill ${pid}\n`);
      };
      const stopCall = (why: 'timeout' | 'abort') => {
        if (stop) return;
        stop = why;
        askKill();
        const started = Date.now();
        // A call that ignores the kill (its group not made yet, a fork storm) takes the sandbox with it.
        killTimer = setInterval(() => {
          if (Date.now() - started >= KILL_GRACE_MS) this.kill();
          else askKill();
        }, KILL_RETRY_MS);
      };
      const timer = setTimeout(() => stopCall('timeout'), call.timeoutMs);
      const onAbort = () => stopCall('abort');
      call.signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (code: number) => {
        clearTimeout(timer);
        clearInterval(killTimer);
        call.signal?.removeEventListener('abort', onAbort);
        this.exitListeners.delete(onExit);
        this.current = null;
        if (stop === 'timeout') resolve(result(TIMEOUT_EXIT_CODE, true, false));
        else if (stop === 'abort') resolve(result(ABORT_EXIT_CODE, false, true));
        else resolve(result(code, false, false));
      };
      // The supervisor died with the call (killed, out of memory): the call ended as if killed.
      const onExit = () => {
        stdout.push(pending);
        finish(137);
      };
      this.exitListeners.add(onExit);
      this.current = {
        onPid: (p) => {
          pid = p;
          if (stop) askKill();
        },
        onOutput: (chunk) => {
          const data = Buffer.concat([pending, chunk]);
          const at = data.indexOf(marker);
          if (at >= 0) {
            const newline = data.indexOf(0x0a, at);
            if (newline >= 0) {
              stdout.push(data.subarray(0, at));
              finish(Number(data.subarray(at + marker.length, newline).toString('latin1')));
              return;
            }
          }
          // Keep back what could be the start of the marker until the next chunk says whether it is.
          const keep = at >= 0 ? data.length - at : Math.min(data.length, marker.length - 1);
          stdout.push(data.subarray(0, data.length - keep));
          pending = data.subarray(data.length - keep);
        },
      };
      this.requests.write(`run ${end}\n${exports.join('')}\0${upToNul(call.stdin)}\0`);
    });
  }

  private onStatus(text: string): void {
    this.statusBuffer += text;
    let newline: number;
    while ((newline = this.statusBuffer.indexOf('\n')) >= 0) {
      const line = this.statusBuffer.slice(0, newline);
      this.statusBuffer = this.statusBuffer.slice(newline + 1);
      if (line === 'ready') this.onReady();
      else if (line.startsWith('pid ')) this.current?.onPid(Number(line.slice(4)));
    }
  }
}

function upToNul(value: string): string {
  const nul = value.indexOf('\0');
  return nul < 0 ? value : value.slice(0, nul);
}
