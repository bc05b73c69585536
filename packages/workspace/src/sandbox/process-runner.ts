import { spawn } from 'node:child_process';
import { AppError } from '@agentry/contracts';
import type { ExecResult } from '../port.js';
import { captureExec } from './output-collector.js';

export interface ProcessRunOptions {
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  stdin?: string;
}

/** Exit codes reported when the platform, not the command, ended the run (as coreutils `timeout` and a shell do). */
export const TIMEOUT_EXIT_CODE = 124;
export const ABORT_EXIT_CODE = 130;

/**
 * Runs argv in its own process group and kills the whole group on timeout, abort or `killAll`, so no
 * grandchild outlives the call. Output is capped per stream.
 */
export class ProcessRunner {
  private readonly running = new Set<() => void>();

  killAll(): void {
    for (const kill of [...this.running]) kill();
  }

  run(argv: string[], options: ProcessRunOptions): Promise<ExecResult> {
    const { stdout, stderr, result } = captureExec(options.maxOutputBytes, Date.now());
    if (options.signal?.aborted) return Promise.resolve(result(ABORT_EXIT_CODE, false, true));

    return new Promise<ExecResult>((resolve, reject) => {
      const [file, ...args] = argv;
      const child = spawn(file!, args, { env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      let timedOut = false;
      let aborted = false;
      const onAbort = () => {
        aborted = true;
        killGroup(child.pid);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.running.add(onAbort);
      const finish = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.running.delete(onAbort);
      };
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.stdin.on('error', () => undefined); // the command may exit without reading its input
      child.stdin.end(options.stdin ?? '');
      child.on('error', (error) => {
        finish();
        reject(new AppError('UNAVAILABLE', `Cannot start ${file}: ${error.message}`, { cause: error }));
      });
      child.on('close', (code, signal) => {
        finish();
        if (timedOut) resolve(result(TIMEOUT_EXIT_CODE, true, false));
        else if (aborted) resolve(result(ABORT_EXIT_CODE, false, true));
        else resolve(result(code ?? 128 + signalNumber(signal), false, false));
      });
    });
  }
}

/** Kills a process started `detached` and everything in its process group. */
export function killGroup(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = {
    SIGHUP: 1,
    SIGINT: 2,
    SIGKILL: 9,
    SIGSEGV: 11,
    SIGPIPE: 13,
    SIGTERM: 15,
    SIGXCPU: 24,
    SIGXFSZ: 25,
  };
  return (signal && numbers[signal]) ?? 0;
}
