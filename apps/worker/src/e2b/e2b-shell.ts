import { posix } from 'node:path';
import type { AgentShell, ShellRun, ShellRunResult } from '@agentry/harness';
import type { E2bSandbox } from '@agentry/workspace';
import { shellQuote, shellWrapper } from '../sandbox/shell-wrapper.js';

/**
 * The session's `bash` in its E2B sandbox: every call is a fresh bash process (so a timeout or cancel kills
 * it on the E2B side), and the same wrapper as the bubblewrap shell carries cwd and exported variables from
 * one call to the next, through a state directory beside the workspace inside the sandbox.
 */
export class E2bShell implements AgentShell {
  private readonly stateDir: string;
  private readonly program: string;

  constructor(
    private readonly sandbox: E2bSandbox,
    private readonly maxOutputBytes: number,
  ) {
    this.stateDir = posix.join(posix.dirname(sandbox.workdir), '.agentry-shell');
    const wrapper = shellWrapper(null, { stateDir: this.stateDir, workdir: sandbox.workdir });
    this.program = `mkdir -p ${this.stateDir} && exec /bin/bash -c ${shellQuote(wrapper)}`;
  }

  async run({ command, timeoutMs, signal }: ShellRun): Promise<ShellRunResult> {
    const result = await this.sandbox.exec(this.program, {
      stdin: command,
      timeoutMs,
      signal,
      maxOutputBytes: this.maxOutputBytes,
    });
    const output = [result.stdout, result.stderr]
      .filter((s) => s !== '')
      .join('\n')
      .replace(/\n+$/, '');
    return { output, exitCode: result.exitCode, timedOut: result.timedOut, aborted: result.aborted };
  }

  async reset(): Promise<void> {
    await this.sandbox.exec(
      `rm -f ${['env', 'env.next', 'cwd'].map((n) => `${this.stateDir}/${n}`).join(' ')}`,
    );
  }
}
