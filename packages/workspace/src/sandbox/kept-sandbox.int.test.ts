import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from './bubblewrap-sandbox.js';

const hasBwrap = existsSync('/usr/bin/bwrap');
/** Each call's input is its command; the command's own stdin is closed. */
const PROGRAM = `IFS= read -r -d '' command; exec </dev/null; eval "$command"`;

describe.runIf(hasBwrap)('kept bubblewrap sandbox', () => {
  let base = '';
  let sandbox: BubblewrapSandbox;

  async function open(setup = ''): Promise<BubblewrapSandbox> {
    base = await mkdtemp(join(tmpdir(), 'ws-kept-'));
    sandbox = new BubblewrapSandbox({
      root: join(base, 'root'),
      shell: '/bin/bash',
      defaultTimeoutMs: 20_000,
    });
    await sandbox.mkdir('');
    sandbox.keep(setup, PROGRAM);
    return sandbox;
  }

  afterEach(async () => {
    await sandbox.dispose();
    await rm(base, { recursive: true, force: true });
  });

  const run = async (command: string, options: { env?: Record<string, string>; timeoutMs?: number } = {}) => {
    const kept = await sandbox.runKept({ stdin: command, env: {}, ...options });
    if (!kept) throw new Error('the kept sandbox did not take the call');
    return kept;
  };

  it('runs one call after another in the same sandbox, no new bubblewrap each time', async () => {
    await open('echo started >> /tmp/setup-runs');
    // The private /tmp is the sandbox's own: a fresh bubblewrap per call would not see the first call's file.
    await run('echo $$ > /tmp/first');
    const second = await run('cat /tmp/first; cat /tmp/setup-runs; echo $$');
    const [first, setupRuns, self] = second.result.stdout.trim().split('\n');
    expect(setupRuns).toBe('started');
    expect(first).not.toBe(self);
    expect(second.replaced).toBe(false);
  });

  it('gives each call its own variables, exit code and output, with stderr interleaved', async () => {
    await open();
    const first = await run('echo "$TOKEN"; echo oops >&2; exit 3', { env: { TOKEN: "it's secret" } });
    expect(first.result).toMatchObject({ exitCode: 3, stdout: "it's secret\noops\n", timedOut: false });
    const second = await run('echo "[$TOKEN]"; read -r line && echo "read $line" || echo eof');
    expect(second.result.stdout).toBe('[]\neof\n');
  });

  it('kills a cancelled call with its whole process group and stays usable', async () => {
    await open();
    const abort = new AbortController();
    const started = sandbox.runKept({
      stdin: 'sleep 300 & echo $! > /tmp/child; sleep 300',
      env: {},
      signal: abort.signal,
    });
    // Another call meanwhile is left to a fresh sandbox (`exec`), not queued behind the sleeping one.
    expect(await sandbox.runKept({ stdin: 'true', env: {} })).toBeNull();
    setTimeout(() => abort.abort(), 300);
    const cancelled = await started;
    expect(cancelled?.result).toMatchObject({ aborted: true, exitCode: 130 });
    const after = await run('kill -0 "$(cat /tmp/child)" 2>/dev/null && echo alive || echo gone');
    expect(after).toMatchObject({ replaced: false, result: { stdout: 'gone\n' } });
  });

  it('ends a call at its timeout and keeps the sandbox', async () => {
    await open();
    await run('echo kept > /tmp/mark');
    const timedOut = await run('sleep 300', { timeoutMs: 300 });
    expect(timedOut.result).toMatchObject({ timedOut: true, exitCode: 124 });
    expect((await run('cat /tmp/mark')).result.stdout).toBe('kept\n');
  });

  it('caps the output, head and tail kept', async () => {
    await open();
    const kept = await sandbox.runKept({
      stdin: 'head -c 100000 /dev/zero | tr "\\0" a; echo; echo last',
      env: {},
      maxOutputBytes: 1000,
    });
    expect(kept?.result.truncated).toBe(true);
    expect(kept?.result.stdout.endsWith('last\n')).toBe(true);
    expect(kept?.result.stdout.length).toBeLessThan(1100);
  });

  it('starts a new sandbox when the old one died, and says so once', async () => {
    await open();
    await run('echo old > /tmp/mark');
    // What an out-of-memory kill of the supervisor looks like: every process of the sandbox gone.
    const killed = await run('kill -KILL -1');
    expect(killed.result.exitCode).toBe(137);
    const next = await run('cat /tmp/mark 2>/dev/null || echo fresh');
    expect(next).toMatchObject({ replaced: true, result: { stdout: 'fresh\n' } });
    expect((await run('true')).replaced).toBe(false);
  });
});
