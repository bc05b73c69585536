import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Checkout } from '@agentry/contracts';

const run = promisify(execFile);

export interface CloneRequest {
  url: string;
  /** Sent as HTTP basic auth (`x-access-token:<token>`, as GitHub takes it); never on a command line or in `.git/config`. */
  token?: string;
  checkout?: Checkout | null;
  dir: string;
  timeoutMs: number;
}

/**
 * Clones on the worker host (never inside the sandbox, which never sees the token). The token travels as
 * an `http.extraHeader` given through GIT_CONFIG_* variables, so neither the process list nor the clone's
 * config keeps it; the remote URL stored in the clone is the plain one.
 */
export async function cloneRepository(request: CloneRequest): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: '/nonexistent',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    ...(request.token
      ? gitHeaderEnv(
          `Authorization: Basic ${Buffer.from(`x-access-token:${request.token}`).toString('base64')}`,
        )
      : {}),
  };
  const options = { env, timeout: request.timeoutMs, maxBuffer: 1024 * 1024 };
  const branch = request.checkout?.type === 'branch' ? ['--branch', request.checkout.name] : [];
  await run('git', ['clone', '--quiet', ...branch, '--', request.url, request.dir], options);
  if (request.checkout?.type === 'commit') {
    await run('git', ['-C', request.dir, 'checkout', '--quiet', '--detach', request.checkout.sha], options);
  }
}

function gitHeaderEnv(header: string): NodeJS.ProcessEnv {
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: header };
}

/** git's error text without anything the token could appear in (it never should; this is the second guard). */
export function cloneFailure(error: unknown, token: string | undefined): string {
  const text =
    error instanceof Error ? (error as { stderr?: string }).stderr || error.message : String(error);
  const scrubbed = token ? text.split(token).join('[token]') : text;
  return scrubbed.trim().split('\n').slice(-3).join(' ').slice(0, 500);
}
