import type { HarnessTool } from '../tool.js';
import { errorOutcome, textOutcome } from '../tool-executor.js';
import { parseToolInput } from '../tool-input.js';
import { agentToolSchema, BashInputSchema } from './agent-toolset.schemas.js';

export interface ShellRun {
  command: string;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface ShellRunResult {
  /** stdout and stderr interleaved, as a terminal shows them (capped, head and tail kept). */
  output: string;
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
}

/** The session's shell: cwd and exported variables carry over from one run to the next until `reset`. */
export interface AgentShell {
  run(run: ShellRun): Promise<ShellRunResult>;
  reset(): Promise<void>;
}

export interface AgentBashOptions {
  /** Used when the call gives no `timeout_ms`. */
  defaultTimeoutMs: number;
  /** Upper bound of a call's `timeout_ms`. */
  maxTimeoutMs: number;
}

/** `bash` on a session shell; a non-zero exit, a timeout or a cancel is an error result with the output. */
export function createAgentBashTool(shell: AgentShell, options: AgentBashOptions): HarnessTool {
  return {
    ...agentToolSchema('bash'),
    toolset: 'builtin',
    async execute(input, { signal }) {
      const args = parseToolInput('bash', BashInputSchema, input);
      const command = args.command ?? '';
      if (args.restart === true) await shell.reset();
      if (command.trim() === '')
        return args.restart === true
          ? textOutcome('bash session restarted')
          : errorOutcome('bash: command is required', 'invalid_request');
      const requested = args.timeout_ms ?? options.defaultTimeoutMs;
      const timeoutMs = Math.max(1, Math.min(requested, options.maxTimeoutMs));
      const result = await shell.run({ command, timeoutMs, signal });
      if (result.aborted)
        return errorOutcome(
          `${result.output}\nbash: cancelled; the command's processes were killed`.trimStart(),
          'cancelled',
        );
      if (result.timedOut)
        return errorOutcome(
          `${result.output}\nbash: command timed out after ${timeoutMs}ms; its processes were killed`.trimStart(),
          'timeout',
        );
      if (result.exitCode !== 0)
        return errorOutcome(result.output || `exit ${result.exitCode}`, 'nonzero_exit');
      return textOutcome(result.output);
    },
  };
}

/** `bash` where the environment has no shell: offered with its schema, every call answered with why. */
export function unavailableBashTool(why: string): HarnessTool {
  return {
    ...agentToolSchema('bash'),
    toolset: 'builtin',
    execute: () => Promise.resolve(errorOutcome(`bash: ${why}`, 'unavailable')),
  };
}
