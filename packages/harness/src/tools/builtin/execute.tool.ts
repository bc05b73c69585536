import type { SandboxFs, WorkspaceFs } from '@agentry/workspace';
import type { HarnessTool } from '../tool.js';
import { objectSchema, optionalNumber, optionalString, stringArg } from './tool-input.js';

export function isSandboxFs(fs: WorkspaceFs): fs is SandboxFs {
  return typeof (fs as Partial<SandboxFs>).exec === 'function';
}

/** Shell command in the sandbox; registered only when the workspace can exec. */
export function createExecuteTool(sandbox: SandboxFs): HarnessTool {
  return {
    name: 'execute',
    description: 'Run a shell command in the sandbox and return its exit code, stdout and stderr.',
    inputSchema: objectSchema(
      {
        command: { type: 'string' },
        working_directory: { type: 'string', description: 'Workspace-relative directory' },
        timeout: { type: 'integer', minimum: 1, description: 'Seconds (default 30)' },
      },
      ['command'],
    ),
    idempotent: false,
    toolset: 'builtin',
    async execute(input, { signal }) {
      const cwd = optionalString(input, 'working_directory');
      const result = await sandbox.exec(stringArg(input, 'command'), {
        ...(cwd ? { cwd } : {}),
        timeoutMs: (optionalNumber(input, 'timeout') ?? 30) * 1000,
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
