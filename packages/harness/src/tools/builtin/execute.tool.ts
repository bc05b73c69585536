import type { SandboxFs, WorkspaceFs } from '@agentry/workspace';
import type { HarnessTool } from '../tool.js';
import { z } from 'zod';
import { parseToolInput, zodInput } from '../tool-input.js';

const ExecuteInput = z.strictObject({
  command: z.string().min(1),
  working_directory: z.string().describe('Workspace-relative directory').optional(),
  timeout: z.int().min(1).describe('Seconds (default 30)').optional(),
});

export function isSandboxFs(fs: WorkspaceFs): fs is SandboxFs {
  return typeof (fs as Partial<SandboxFs>).exec === 'function';
}

/** Shell command in the sandbox; registered only when the workspace can exec. */
export function createExecuteTool(sandbox: SandboxFs): HarnessTool {
  return {
    name: 'execute',
    description: 'Run a shell command in the sandbox and return its exit code, stdout and stderr.',
    ...zodInput(ExecuteInput),
    idempotent: false,
    toolset: 'builtin',
    async execute(input, { signal }) {
      const args = parseToolInput('execute', ExecuteInput, input);
      const cwd = args.working_directory;
      const result = await sandbox.exec(args.command, {
        ...(cwd ? { cwd } : {}),
        timeoutMs: (args.timeout ?? 30) * 1000,
        signal,
        maxOutputBytes: 64 * 1024,
      });
      const text = [
        `exit_code: ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}`,
        `stdout:\n${result.stdout}`,
        `stderr:\n${result.stderr}`,
      ].join('\n');
      return result.exitCode === 0 && !result.timedOut
        ? { status: 'ok', content: [{ type: 'text', text }] }
        : {
            status: 'error',
            content: [{ type: 'text', text }],
            reason: result.timedOut ? 'timeout' : 'nonzero_exit',
          };
    },
  };
}
