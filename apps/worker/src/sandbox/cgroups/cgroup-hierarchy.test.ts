import { describe, expect, it } from 'vitest';
import { configuredHierarchy, ownHierarchy } from './cgroup-hierarchy.js';

const HYBRID_CGROUP = `9:name=systemd:/
8:pids:/
4:memory:/process_api/abc
1:cpu:/
0::/`;
const HYBRID_MOUNTS = `30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
31 25 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
32 25 0:28 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
33 25 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw`;

describe('the cgroups a worker may make session cgroups in', () => {
  it('on the v1 hierarchies: its own cgroup in each controller', () => {
    expect(ownHierarchy(HYBRID_CGROUP, HYBRID_MOUNTS)).toEqual({
      version: 1,
      dirs: {
        memory: '/sys/fs/cgroup/memory/process_api/abc',
        pids: '/sys/fs/cgroup/pids',
        cpu: '/sys/fs/cgroup/cpu',
      },
    });
  });

  it('on cgroup v2 alone: its own directory, seen through a container that mounts only its sub-tree', () => {
    const mounts = '40 30 0:30 /kubepods/pod1/c1 /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw';
    expect(ownHierarchy('0::/kubepods/pod1/c1/worker\n', mounts)).toEqual({
      version: 2,
      dir: '/sys/fs/cgroup/worker',
    });
    expect(ownHierarchy('0::/\n', '40 30 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw')).toEqual({
      version: 2,
      dir: '/sys/fs/cgroup',
    });
  });

  it('none where no cgroup is mounted, or when the installation says none', () => {
    expect(ownHierarchy('0::/\n', '22 1 8:1 / / rw - ext4 /dev/vda rw')).toBeNull();
    expect(configuredHierarchy('none', () => true)).toBeNull();
  });

  it('a named directory: v2 when it has cgroup.controllers, else a v1 root holding controllers', () => {
    expect(configuredHierarchy('/cg', (p) => p === '/cg/cgroup.controllers')).toEqual({
      version: 2,
      dir: '/cg',
    });
    expect(configuredHierarchy('/cg', (p) => p === '/cg/pids/cgroup.procs')).toEqual({
      version: 1,
      dirs: { pids: '/cg/pids' },
    });
  });
});
