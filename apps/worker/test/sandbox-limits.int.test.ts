import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHands, type Hands } from './sandbox-fixture.js';

const hasBwrap = existsSync('/usr/bin/bwrap');
const MiB = 1024 * 1024;

/**
 * The session's caps on this machine's cgroup hierarchy (v1 here, or v2) and its workspace quota: each
 * limit stops what goes past it, the result names the limit, and the next call works.
 */
describe.runIf(hasBwrap)('a session sandbox holds its limits', () => {
  let hands: Hands;

  beforeAll(async () => {
    hands = await startHands({
      AGENTRY_SANDBOX_PROCESSES: '64',
      AGENTRY_SANDBOX_MEMORY_BYTES: String(192 * MiB),
      AGENTRY_SANDBOX_DISK_BYTES: String(48 * MiB),
    });
  });

  afterAll(async () => {
    await hands?.stop();
  });

  it('stops a fork bomb at the process cap, not at the call timeout', async () => {
    await hands.run('sess_bomb', 'bash', { command: 'true' });
    const bomb = await hands.run('sess_bomb', 'bash', {
      command: 'bomb() { bomb | bomb & }; bomb; sleep 100',
      timeout_ms: 100_000,
    });
    expect(bomb.isError).toBe(true);
    expect(bomb.reason).not.toBe('timeout');
    expect(hands.text(bomb)).toContain('process limit (64 processes)');
    expect(hands.text(await hands.run('sess_bomb', 'bash', { command: 'echo still-here' }))).toBe(
      'still-here',
    );
  });

  it('kills a process allocating past the memory limit and says so', async () => {
    const hog = await hands.run('sess_memory', 'bash', {
      command: 'python3 -c "b = bytearray(400 * 1024 * 1024); print(len(b))"',
    });
    expect(hog.isError).toBe(true);
    expect(hands.text(hog)).toContain('memory limit (192 MiB) was reached');
    expect(hands.text(await hands.run('sess_memory', 'bash', { command: 'echo after' }))).toBe('after');
  });

  it('fails a write past the disk quota with ENOSPC, and the next call works', async () => {
    const fill = await hands.run('sess_disk', 'bash', {
      command: 'for i in $(seq 100); do head -c 1000000 /dev/zero > f$i || exit 1; done; echo filled',
    });
    expect(fill.isError).toBe(true);
    expect(hands.text(fill)).toMatch(/No space left on device|Disk quota exceeded/);
    expect(hands.text(await hands.run('sess_disk', 'bash', { command: 'rm f*; df -m . | tail -1' }))).toMatch(
      /\s4\d\s/,
    );
    const write = await hands.run('sess_disk', 'write', { file_path: 'after.txt', content: 'ok' });
    expect(write.isError).toBe(false);
  });
});
