import { execFileSync } from 'node:child_process';

/** Host pids of processes whose command line is exactly `args` (tests find a sandboxed `sleep` by a unique argument). */
export function pidsOf(args: string): number[] {
  const lines = execFileSync('ps', ['-eo', 'pid=,args=']).toString().split('\n');
  return lines.flatMap((line) => {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    return match && match[2] === args ? [Number(match[1])] : [];
  });
}

/** Whether a host process with this pid still exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
