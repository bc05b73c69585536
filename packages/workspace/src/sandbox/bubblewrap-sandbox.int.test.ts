import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runSandboxConformance } from '../testing/sandbox-conformance.js';
import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { expectAppError } from '../testing/expect-app-error.js';
import { BubblewrapSandbox, type BubblewrapSandboxOptions } from './bubblewrap-sandbox.js';

const hasBwrap = existsSync('/usr/bin/bwrap');

async function sandbox(options: Partial<BubblewrapSandboxOptions> = {}) {
  const base = await mkdtemp(join(tmpdir(), 'ws-bwrap-'));
  const outsideDir = join(base, 'outside');
  await mkdir(outsideDir);
  await writeFile(join(outsideDir, 'secret.txt'), 'host secret');
  const fs = new BubblewrapSandbox({ root: join(base, 'root'), defaultTimeoutMs: 20_000, ...options });
  await fs.mkdir('');
  return {
    fs,
    outsideDir,
    createSymlink: (path: string, target: string) => symlink(target, fs.hostPath(path)),
    escapedEntries: async () => (await readdir(base)).filter((n) => n !== 'root' && n !== 'outside'),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

describe.runIf(hasBwrap)('bubblewrap', () => {
  runWorkspaceConformance('bubblewrap sandbox files', (options) => sandbox(options));
  runSandboxConformance('bubblewrap', () => sandbox());

  it('refuses to follow a symlink a command planted towards the host', async () => {
    const sb = await sandbox();
    try {
      const run = await sb.fs.exec(
        `ln -s ${sb.outsideDir}/secret.txt leak && ln -s /etc leak-dir && echo ok`,
      );
      expect(run.stdout).toBe('ok\n');
      await expectAppError(sb.fs.readText('leak'), 'PATH_ESCAPE');
      await expectAppError(sb.fs.writeText('leak', 'overwrite'), 'PATH_ESCAPE');
      await expectAppError(sb.fs.readText('leak-dir/hostname'), 'PATH_ESCAPE');
      expect((await sb.fs.list('')).map((e) => e.path)).toEqual([]);
    } finally {
      await sb.cleanup();
    }
  });

  it('reaches the network only when configured', async () => {
    const sb = await sandbox({ network: true });
    try {
      const run = await sb.fs.exec(`bash -c '(exec 3<>/dev/tcp/127.0.0.1/6379) && echo open'`);
      expect(run.stdout).toBe('open\n');
    } finally {
      await sb.cleanup();
    }
  });

  it('applies resource limits', async () => {
    const sb = await sandbox({ limits: { fileSizeBytes: 1024 * 1024, openFiles: 64 } });
    try {
      expect((await sb.fs.exec('ulimit -n')).stdout.trim()).toBe('64');
      const big = await sb.fs.exec('head -c 3000000 /dev/zero > big.bin');
      expect(big.exitCode).not.toBe(0);
      expect((await sb.fs.stat('big.bin'))!.size).toBeLessThanOrEqual(1024 * 1024);
    } finally {
      await sb.cleanup();
    }
  });

  it('leaves no process behind after a timeout, not even a daemonized one', async () => {
    const sb = await sandbox();
    try {
      const run = await sb.fs.exec('(sleep 4711 &); sleep 4712 & sleep 4713', { timeoutMs: 700 });
      expect(run.timedOut).toBe(true);
      // The processes are killed with the sandbox; give the kernel a moment to reap them, no more.
      await vi.waitFor(
        () => expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toMatch(/sleep 471[123]/),
        { timeout: 1_000, interval: 20 },
      );
    } finally {
      await sb.cleanup();
    }
  });

  it('runs commands as an unprivileged identity unless told otherwise', async () => {
    const sb = await sandbox();
    const keep = await sandbox({ identity: null });
    try {
      expect((await sb.fs.exec('id -u')).stdout).toBe('1000\n');
      expect((await keep.fs.exec('id -u')).stdout).toBe(`${process.getuid?.() ?? 0}\n`);
    } finally {
      await sb.cleanup();
      await keep.cleanup();
    }
  });

  it('runs every command in its own pid namespace', async () => {
    const sb = await sandbox();
    try {
      const run = await sb.fs.exec('ls /proc | grep -E "^[0-9]+$" | wc -l');
      expect(Number(run.stdout.trim())).toBeLessThan(10);
    } finally {
      await sb.cleanup();
    }
  });
});
