import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CgroupV2Sessions } from './cgroup-v2.js';

const caps = { memoryBytes: 512 * 1024 * 1024, processes: 128, cpus: 1.5 };

/**
 * The cgroup v2 path, on a directory laid out as a delegated v2 cgroup (this machine runs the v1
 * hierarchies, where the integration tests exercise the kernel itself).
 */
describe('session cgroups on cgroup v2', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cgroup-v2-'));
    await writeFile(join(dir, 'cgroup.controllers'), 'cpuset cpu io memory hugetlb pids rdma misc\n');
    await writeFile(join(dir, 'cgroup.subtree_control'), '');
    await writeFile(join(dir, 'cgroup.procs'), '101\n102\n');
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('moves the worker into a leaf, hands memory, pids and cpu to the children, and caps a session', async () => {
    const sessions = new CgroupV2Sessions(dir, caps);
    expect(await sessions.prepare()).toBe(true);
    expect(await readFile(join(dir, 'agentry-worker', 'cgroup.procs'), 'utf8')).toBe('102');
    expect(await readFile(join(dir, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids +cpu');
    expect(sessions.enforced).toEqual({ memory: true, processes: true, cpu: true });

    const cgroup = (await sessions.create('agentry-s1'))!;
    const session = join(dir, 'agentry-s1');
    expect(cgroup.dirs).toEqual([session]);
    const read = (file: string) => readFile(join(session, file), 'utf8');
    expect(await read('memory.max')).toBe(String(caps.memoryBytes));
    expect(await read('memory.swap.max')).toBe('0');
    expect(await read('pids.max')).toBe('128');
    expect(await read('cpu.max')).toBe('150000 100000');
    expect(await read('cpu.weight')).toBe('100');
  });

  it("reads the kernel's counters of OOM kills and refused forks", async () => {
    const sessions = new CgroupV2Sessions(dir, caps);
    await sessions.prepare();
    const cgroup = (await sessions.create('agentry-s2'))!;
    expect(await cgroup.counters()).toEqual({ oomKills: 0, forksRefused: 0, processes: 0 });
    await writeFile(join(dir, 'agentry-s2', 'memory.events'), 'low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\n');
    await writeFile(join(dir, 'agentry-s2', 'pids.events'), 'max 37\n');
    await writeFile(join(dir, 'agentry-s2', 'pids.current'), '63\n');
    expect(await cgroup.counters()).toEqual({ oomKills: 1, forksRefused: 37, processes: 63 });
  });

  it('enforces nothing where the controllers are not delegated', async () => {
    await writeFile(join(dir, 'cgroup.controllers'), 'cpuset io\n');
    expect(await new CgroupV2Sessions(dir, caps).prepare()).toBe(false);
    await mkdir(join(dir, 'x'));
    expect(await new CgroupV2Sessions(join(dir, 'x'), caps).prepare()).toBe(false);
  });
});
