import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAlive, pidsOf, pollUntil } from '@agentry/testing';
import { startHands, type Hands } from './sandbox-fixture.js';

const hasBwrap = existsSync('/usr/bin/bwrap');

/** The host pids of the bubblewrap kept for a session: those binding its workspace and running the supervisor. */
function keptSandboxPids(hands: Hands, sessionId: string): number[] {
  const workspace = join(hands.sandboxes.dirOf('tenant_hands', sessionId), 'workspace');
  return execFileSync('ps', ['-eo', 'pid=,args='])
    .toString()
    .split('\n')
    .flatMap((line) => {
      const match = /^\s*(\d+)\s+(\S+)(.*)$/.exec(line);
      const args = match?.[3] ?? '';
      return match?.[2]!.endsWith('bwrap') && args.includes(` ${workspace} `) && args.includes('agentry_req')
        ? [Number(match[1])]
        : [];
    });
}

/** The session cgroup directories a host process is in (v2, or v1's pids and memory controllers). */
function sessionCgroupsOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cgroup`, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const [, controllers, path] = line.split(':');
      if (!path?.includes('agentry-')) return [];
      if (controllers === '') return [`/sys/fs/cgroup${path}`];
      return (controllers ?? '')
        .split(',')
        .filter((c) => c === 'pids' || c === 'memory')
        .map((c) => `/sys/fs/cgroup/${c}${path}`);
    });
}

describe.runIf(hasBwrap)("a session's bash calls share one kept sandbox", () => {
  let hands: Hands;

  beforeAll(async () => {
    hands = await startHands();
  });

  afterAll(async () => {
    await hands?.stop();
  });

  it('runs two calls in the same sandbox, no new bubblewrap, with cwd and variables carried', async () => {
    const first = await hands.run('sess_kept', 'bash', {
      command:
        'echo marked > /tmp/mark; mkdir -p sub && cd sub && export KEPT=yes; cut -d" " -f22 /proc/1/stat',
    });
    // bubblewrap itself and its first process in the new namespaces, both started once.
    const sandboxes = keptSandboxPids(hands, 'sess_kept');
    expect(sandboxes.length).toBeGreaterThan(0);
    const second = await hands.run('sess_kept', 'bash', {
      command: 'cat /tmp/mark; pwd; echo "$KEPT"; cut -d" " -f22 /proc/1/stat',
    });
    // The sandbox's /tmp and its first process (same start time) outlived the first call.
    const started = hands.text(first).trim();
    expect(hands.text(second).trim().split('\n')).toEqual(['marked', '/workspace/sub', 'yes', started]);
    expect(keptSandboxPids(hands, 'sess_kept')).toEqual(sandboxes);
  });

  it("kills a cancelled call's whole process group and keeps the sandbox for the next call", async () => {
    await hands.run('sess_kept_cancel', 'bash', { command: 'echo kept > /tmp/mark' });
    const controller = new AbortController();
    const call = hands.run(
      'sess_kept_cancel',
      'bash',
      { command: 'sleep 65.4711 & sleep 65.4712' },
      { signal: controller.signal, timeoutMs: 120_000 },
    );
    const pids = await vi.waitFor(
      () => {
        const found = [...pidsOf('sleep 65.4711'), ...pidsOf('sleep 65.4712')];
        if (found.length < 2) throw new Error('the sleeps have not started yet');
        return found;
      },
      { timeout: 15_000, interval: 20 },
    );
    controller.abort(new Error('cancelled by the Brain'));
    expect(await call).toMatchObject({ isError: true, reason: 'cancelled' });
    await pollUntil('the sleeps to die', () => pids.every((pid) => !isAlive(pid)), 3_000);
    const next = await hands.run('sess_kept_cancel', 'bash', { command: 'cat /tmp/mark' });
    expect(hands.text(next)).toBe('kept');
  });

  it('starts the sandbox again after it was killed, and tells the model once', async () => {
    await hands.run('sess_kept_killed', 'bash', { command: 'cd /tmp && echo old > /tmp/mark' });
    const [pid] = keptSandboxPids(hands, 'sess_kept_killed');
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGKILL'); // as the kernel's out-of-memory killer would
    await pollUntil('the sandbox to die', () => !isAlive(pid!), 3_000);
    const next = await hands.run('sess_kept_killed', 'bash', {
      command: 'pwd; cat /tmp/mark 2>/dev/null || echo fresh',
    });
    const lines = hands.text(next).split('\n');
    expect(lines[0]).toMatch(/^\[sandbox replaced\]/);
    // The shell's state is the session's, kept outside the sandbox: the working directory came back.
    expect(lines.slice(1)).toEqual(['/tmp', 'fresh']);
    const after = await hands.run('sess_kept_killed', 'bash', { command: 'echo again' });
    expect(hands.text(after)).toBe('again');
  });

  it('closing the session sandbox ends the kept one, and its cgroup goes with it', async () => {
    await hands.run('sess_kept_close', 'bash', { command: 'true' });
    const pids = keptSandboxPids(hands, 'sess_kept_close');
    const cgroups = sessionCgroupsOf(pids[0]!);
    expect(cgroups.length).toBeGreaterThan(0);
    await hands.sandboxes.close('tenant_hands', 'sess_kept_close');
    // Removed by the close itself, which waited for the sandbox's processes to leave them.
    expect(cgroups.filter((dir) => existsSync(dir))).toEqual([]);
    await pollUntil('the sandbox to be gone', () => pids.every((pid) => !isAlive(pid)), 3_000);
  });
});
