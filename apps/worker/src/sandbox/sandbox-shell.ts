import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentShell, ShellRun, ShellRunResult } from '@agentry/harness';
import type { BubblewrapSandbox } from '@agentry/workspace';
import type { SessionCgroup } from './cgroups/session-cgroup.js';
import { LimitWatch } from './limit-watch.js';
import { shellWrapper } from './shell-wrapper.js';

/** The session's cgroup and the caps it holds, so a call a limit ended says so. */
export interface ShellLimits {
  cgroup: SessionCgroup;
  memoryBytes: number;
  processes: number;
}

/**
 * The session's `bash`: every call is a fresh bubblewrap sandbox (so a timeout or cancel kills all of
 * it), and the wrapper carries cwd and exported variables from one call to the next through the
 * session's state directory. Background processes end with their call.
 */
export class SandboxShell implements AgentShell {
  private readonly wrapper: string;
  private readonly maxOutputBytes: number;
  private credentialEnv: Record<string, string> = {};

  constructor(
    private readonly sandbox: BubblewrapSandbox,
    private readonly stateDir: string,
    options: { forwarder: string | null; maxOutputBytes: number },
    private readonly limits: ShellLimits | null = null,
  ) {
    this.wrapper = shellWrapper(options.forwarder);
    this.maxOutputBytes = options.maxOutputBytes;
  }

  /** The session's credential variables, each holding its placeholder, for the calls that follow. */
  setCredentialEnv(env: Record<string, string>): void {
    this.credentialEnv = env;
  }

  async run({ command, timeoutMs, signal }: ShellRun): Promise<ShellRunResult> {
    const watch = this.limits ? await LimitWatch.start(this.limits.cgroup, this.limits) : null;
    const result = await this.sandbox.exec(this.wrapper, {
      stdin: command,
      timeoutMs,
      signal: watch && signal ? AbortSignal.any([signal, watch.signal]) : (watch?.signal ?? signal),
      maxOutputBytes: this.maxOutputBytes,
      env: this.credentialEnv,
    });
    const notes = (await watch?.notes()) ?? [];
    const output = [result.stdout, result.stderr, ...notes]
      .filter((s) => s !== '')
      .join('\n')
      .replace(/\n+$/, '');
    // Stopped by the process cap, the call ended like a killed command, not like a cancelled one.
    const capped = watch?.stoppedByProcessCap === true && !signal?.aborted;
    return {
      output,
      exitCode: capped ? 137 : result.exitCode,
      timedOut: result.timedOut,
      aborted: capped ? false : result.aborted,
    };
  }

  async reset(): Promise<void> {
    await Promise.all(
      ['env', 'env.next', 'cwd'].map((name) => rm(join(this.stateDir, name), { force: true })),
    );
  }
}
