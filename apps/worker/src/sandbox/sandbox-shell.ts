import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentShell, ShellRun, ShellRunResult } from '@agentry/harness';
import type { BubblewrapSandbox } from '@agentry/workspace';
import type { SessionCgroup } from './cgroups/session-cgroup.js';
import { LimitWatch } from './limit-watch.js';
import { keptSandboxSetup, shellWrapper } from './shell-wrapper.js';

/** The session's cgroup and the caps it holds, so a call a limit ended says so. */
export interface ShellLimits {
  cgroup: SessionCgroup;
  memoryBytes: number;
  processes: number;
}

/** Told to the model when the session's kept sandbox died (killed, out of memory) since its last call. */
const SANDBOX_REPLACED =
  "[sandbox replaced] This session's sandbox stopped since the last call and was started again: the files under /workspace, the working directory and exported variables were kept; running processes and anything outside /workspace are gone.";

/**
 * The session's `bash`: calls run one after another in the session's kept sandbox (one bubblewrap, its
 * egress forwarder started once), each in its own process group, killed with everything it started on a
 * timeout or cancel and when it ends. A call made while another runs gets a fresh sandbox of its own.
 * The wrapper carries cwd and exported variables from one call to the next through the session's state
 * directory either way.
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
    sandbox.keep(keptSandboxSetup(options.forwarder), shellWrapper(null, { renamedByHost: true }));
  }

  /** The session's credential variables, each holding its placeholder, for the calls that follow. */
  setCredentialEnv(env: Record<string, string>): void {
    this.credentialEnv = env;
  }

  async run({ command, timeoutMs, signal }: ShellRun): Promise<ShellRunResult> {
    const watch = this.limits ? await LimitWatch.start(this.limits.cgroup, this.limits) : null;
    const options = {
      stdin: command,
      timeoutMs,
      signal: watch && signal ? AbortSignal.any([signal, watch.signal]) : (watch?.signal ?? signal),
      maxOutputBytes: this.maxOutputBytes,
      env: this.credentialEnv,
    };
    const kept = await this.sandbox.runKept(options);
    const result = kept?.result ?? (await this.sandbox.exec(this.wrapper, options));
    if (kept) await this.keepVariables(!result.timedOut && !result.aborted);
    const notes = (await watch?.notes()) ?? [];
    const output = [kept?.replaced ? SANDBOX_REPLACED : '', result.stdout, result.stderr, ...notes]
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

  /**
   * The kept sandbox's wrapper leaves its variables in env.next: complete if the call ended by itself, and
   * taken then; a call that was stopped may have been cut off while saving, so its file is dropped.
   */
  private async keepVariables(complete: boolean): Promise<void> {
    const next = join(this.stateDir, 'env.next');
    await (complete ? rename(next, join(this.stateDir, 'env')) : rm(next, { force: true })).catch(
      () => undefined, // nothing saved: the command ended the shell before its exit trap (killed)
    );
  }

  async reset(): Promise<void> {
    await Promise.all(
      ['env', 'env.next', 'cwd'].map((name) => rm(join(this.stateDir, name), { force: true })),
    );
  }
}
