import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { killGroup } from '@agentry/workspace';

/**
 * Runs a build step with its output going to `log`; rejects with the exit status, or when it runs past
 * `timeoutMs` (then everything it started is killed).
 */
export function runLogged(
  file: string,
  args: string[],
  log: Writable,
  timeoutMs: number,
  env: Record<string, string> = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(new Error(`${file} did not finish within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${file} could not be started: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${file} exited with ${signal ?? `status ${code}`}`));
    });
  });
}
