import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxFs } from '../port.js';
import type { SandboxFactory, WorkspaceUnderTest } from './conformance-types.js';
import { expectAppError } from './expect-app-error.js';

/**
 * The contract of sandbox backends on top of the workspace contract: commands see the workspace files,
 * report exit codes, honour cwd/env/stdin, stop on timeout and abort, cap output, reach no network and
 * no host file outside the root. The factory should give `outsideDir` (a host directory with secret.txt).
 */
export function runSandboxConformance(name: string, factory: SandboxFactory): void {
  describe(`${name}: sandbox conformance`, () => {
    const opened: WorkspaceUnderTest<SandboxFs>[] = [];
    const open = async () => {
      const sb = await factory({});
      opened.push(sb);
      return sb;
    };
    afterEach(async () => {
      for (const sb of opened.splice(0)) {
        await sb.fs.dispose();
        await sb.cleanup?.();
      }
    });

    it('runs commands against the workspace files', async () => {
      const { fs } = await open();
      await fs.writeText('in/data.txt', 'from host\n');
      const run = await fs.exec('cat in/data.txt && echo "from sandbox" > out.txt && echo done');
      expect(run).toMatchObject({
        exitCode: 0,
        stdout: 'from host\ndone\n',
        timedOut: false,
        aborted: false,
        truncated: false,
      });
      expect(await fs.readText('out.txt')).toBe('from sandbox\n');
    });

    it('reports exit codes and stderr, and honours cwd, env and stdin', async () => {
      const { fs } = await open();
      expect(await fs.exec('echo oops >&2; exit 3')).toMatchObject({
        exitCode: 3,
        stdout: '',
        stderr: 'oops\n',
      });
      await fs.mkdir('sub/dir');
      expect((await fs.exec('basename "$(pwd)"', { cwd: 'sub/dir' })).stdout).toBe('dir\n');
      await expectAppError(fs.exec('pwd', { cwd: '../..' }), 'PATH_ESCAPE');
      await expectAppError(fs.exec('pwd', { cwd: 'missing' }), 'NOT_FOUND');
      expect((await fs.exec('echo "$GREETING"', { env: { GREETING: 'hi there' } })).stdout).toBe(
        'hi there\n',
      );
      expect((await fs.exec('tr a-z A-Z', { stdin: 'shout' })).stdout).toBe('SHOUT');
    });

    it('does not leak the host environment', async () => {
      const { fs } = await open();
      process.env.AGENTRY_CONFORMANCE_SECRET = 'leaked-value';
      try {
        expect((await fs.exec('echo "${AGENTRY_CONFORMANCE_SECRET:-absent}"')).stdout).toBe('absent\n');
      } finally {
        delete process.env.AGENTRY_CONFORMANCE_SECRET;
      }
    });

    it('kills commands that run past their timeout', async () => {
      const { fs } = await open();
      const run = await fs.exec('echo start; sleep 30; echo never', { timeoutMs: 700 });
      expect(run.timedOut).toBe(true);
      expect(run.exitCode).not.toBe(0);
      expect(run.stdout).toContain('start');
      expect(run.stdout).not.toContain('never');
      expect(run.durationMs).toBeLessThan(10_000);
    });

    it('stops on abort, including a signal aborted before the start', async () => {
      const { fs } = await open();
      const controller = new AbortController();
      const started = Date.now();
      const running = fs.exec('touch started; sleep 30', { signal: controller.signal });
      await vi.waitFor(async () => expect(await fs.exists('started')).toBe(true), { timeout: 10_000 });
      controller.abort();
      const run = await running;
      expect(run.aborted).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      const pre = await fs.exec('echo should-not-run > ran.txt', { signal: AbortSignal.abort() });
      expect(pre.aborted).toBe(true);
      expect(await fs.exists('ran.txt')).toBe(false);
    });

    it('caps output with a truncation marker', async () => {
      const { fs } = await open();
      const run = await fs.exec('i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i+1)); done', {
        maxOutputBytes: 1000,
      });
      expect(run.exitCode).toBe(0);
      expect(run.truncated).toBe(true);
      expect(run.stdout).toMatch(/truncated/);
      expect(run.stdout.startsWith('line 0\n')).toBe(true);
      expect(run.stdout.endsWith('line 2999\n')).toBe(true);
      expect(Buffer.byteLength(run.stdout)).toBeLessThan(1100);
    });

    it('has no network', async () => {
      const { fs } = await open();
      const probe =
        'for p in 6379 5432 4222 80; do (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null && echo "open $p"; done; echo checked';
      const run = await fs.exec(`bash -c '${probe}'`);
      expect(run.stdout).toBe('checked\n');
    });

    it('cannot read host files outside the root or write the system', async (ctx) => {
      const sb = await open();
      if (!sb.outsideDir) return ctx.skip();
      const read = await sb.fs.exec(`cat ${sb.outsideDir}/secret.txt`);
      expect(read.exitCode).not.toBe(0);
      expect(read.stdout).not.toContain('host secret');
      const write = await sb.fs.exec('echo x > /usr/agentry-pwned');
      expect(write.exitCode).not.toBe(0);
      const ls = await sb.fs.exec(`ls ${sb.outsideDir} 2>&1; ls /`);
      expect(ls.stdout).not.toContain('secret.txt');
    });

    it('kills running commands on dispose', async () => {
      const { fs } = await open();
      const pending = fs.exec('touch running; sleep 30');
      await vi.waitFor(async () => expect(await fs.exists('running')).toBe(true), { timeout: 10_000 });
      const started = Date.now();
      await fs.dispose();
      const run = await pending;
      expect(run.exitCode).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      await expectAppError(fs.exec('true'), 'UNAVAILABLE');
    });
  });
}
