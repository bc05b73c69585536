import type { ExecResult } from '../port.js';
import type { E2bCommandResult, E2bSandboxHandle } from './e2b-handle.js';
import { captureExec } from './output-collector.js';
import { ABORT_EXIT_CODE, TIMEOUT_EXIT_CODE } from './process-runner.js';

export interface E2bExecRequest {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  stdin?: string;
}

// envd's stdin needs a streaming handle; piping a decoded literal is simpler and works on every template.
function withStdin(command: string, stdin: string | undefined): string {
  if (stdin === undefined) return command;
  return `printf '%s' '${Buffer.from(stdin).toString('base64')}' | base64 -d | (\n${command}\n)`;
}

const isResult = (value: unknown): value is E2bCommandResult =>
  typeof (value as { exitCode?: unknown })?.exitCode === 'number';

/** Runs one command in an E2B sandbox with the port's timeout, abort and output-cap semantics. */
export async function execInE2b(
  sandbox: E2bSandboxHandle,
  req: E2bExecRequest,
  onStart?: (kill: () => void) => () => void,
): Promise<ExecResult> {
  const { stdout, stderr, result } = captureExec(req.maxOutputBytes, Date.now());
  if (req.signal?.aborted) return result(ABORT_EXIT_CODE, false, true);

  const handle = await sandbox.commands.run(withStdin(req.command, req.stdin), {
    background: true,
    cwd: req.cwd,
    envs: req.env,
    // envd's own limit is a backstop; ours decides and kills.
    timeoutMs: req.timeoutMs + 5_000,
    onStdout: (data) => stdout.push(data),
    onStderr: (data) => stderr.push(data),
  });
  let stop!: (reason: 'timeout' | 'abort') => void;
  const stopped = new Promise<'timeout' | 'abort'>((resolve) => (stop = resolve));
  const timer = setTimeout(() => stop('timeout'), req.timeoutMs);
  const onAbort = () => stop('abort');
  req.signal?.addEventListener('abort', onAbort, { once: true });
  const unregister = onStart?.(onAbort) ?? (() => undefined);
  try {
    const outcome = await Promise.race([
      handle.wait().catch((error: unknown) => {
        // A command that exits non-zero rejects with its result: that is an outcome, not a failure.
        if (isResult(error)) return error;
        throw error;
      }),
      stopped,
    ]);
    if (outcome === 'timeout' || outcome === 'abort') {
      await handle.kill().catch(() => false);
      return result(
        outcome === 'timeout' ? TIMEOUT_EXIT_CODE : ABORT_EXIT_CODE,
        outcome === 'timeout',
        outcome === 'abort',
      );
    }
    return result(outcome.exitCode, false, false);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
    unregister();
  }
}
