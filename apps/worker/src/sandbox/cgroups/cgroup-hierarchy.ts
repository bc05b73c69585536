import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The controllers a session's sandbox is capped by. */
const SANDBOX_CONTROLLERS = ['memory', 'pids', 'cpu'] as const;
export type SandboxController = (typeof SANDBOX_CONTROLLERS)[number];

/**
 * Where this worker may make session cgroups: on cgroup v2 one directory (its own cgroup, delegated),
 * on v1 one directory per controller (its own cgroup in each hierarchy). A controller that is missing is
 * not enforced through a cgroup.
 */
export type CgroupHierarchy =
  { version: 2; dir: string } | { version: 1; dirs: Partial<Record<SandboxController, string>> };

interface CgroupMount {
  /** The mount's root inside the hierarchy (`/` unless the mount shows a sub-tree). */
  root: string;
  mountPoint: string;
  fsType: string;
  options: string[];
}

/** The cgroup mounts of a `/proc/self/mountinfo`. */
function cgroupMounts(mountinfo: string): CgroupMount[] {
  return mountinfo.split('\n').flatMap((line) => {
    const [before, after] = line.split(' - ');
    if (!before || !after) return [];
    const fields = before.split(' ');
    const [fsType = '', , superOptions = ''] = after.split(' ');
    if (fsType !== 'cgroup' && fsType !== 'cgroup2') return [];
    return [
      { root: fields[3] ?? '/', mountPoint: fields[4] ?? '', fsType, options: superOptions.split(',') },
    ];
  });
}

function below(mount: CgroupMount, path: string): string {
  const relative =
    mount.root === '/' ? path : path.startsWith(mount.root) ? path.slice(mount.root.length) : path;
  return join(mount.mountPoint, relative).replace(/(.)\/$/, '$1');
}

/**
 * This process's own cgroups, read from `/proc/self/cgroup` and `/proc/self/mountinfo`: the v2 directory
 * when the host runs cgroup v2 alone, else the v1 directory of each sandbox controller that is mounted.
 */
export function ownHierarchy(procCgroup: string, mountinfo: string): CgroupHierarchy | null {
  const mounts = cgroupMounts(mountinfo);
  const lines = procCgroup
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', controllers = '', ...path] = line.split(':');
      return { id, controllers: controllers.split(','), path: path.join(':') };
    });
  const dirs: Partial<Record<SandboxController, string>> = {};
  for (const controller of SANDBOX_CONTROLLERS) {
    const line = lines.find((l) => l.controllers.includes(controller));
    const mount = mounts.find((m) => m.fsType === 'cgroup' && m.options.includes(controller));
    if (line && mount) dirs[controller] = below(mount, line.path);
  }
  if (Object.keys(dirs).length > 0) return { version: 1, dirs };
  const unified = lines.find((l) => l.id === '0');
  const mount = mounts.find((m) => m.fsType === 'cgroup2');
  if (unified && mount) return { version: 2, dir: below(mount, unified.path) };
  return null;
}

/** The hierarchy `AGENTRY_SANDBOX_CGROUP` names: `auto`, `none`, a v2 directory, or a v1 root holding controllers. */
export function configuredHierarchy(
  setting: string,
  exists: (path: string) => boolean,
): CgroupHierarchy | null {
  if (setting === 'none' || setting === '') return null;
  if (setting === 'auto') {
    try {
      return ownHierarchy(
        readFileSync('/proc/self/cgroup', 'utf8'),
        readFileSync('/proc/self/mountinfo', 'utf8'),
      );
    } catch {
      return null;
    }
  }
  if (exists(join(setting, 'cgroup.controllers'))) return { version: 2, dir: setting };
  const dirs: Partial<Record<SandboxController, string>> = {};
  for (const controller of SANDBOX_CONTROLLERS)
    if (exists(join(setting, controller, 'cgroup.procs'))) dirs[controller] = join(setting, controller);
  return Object.keys(dirs).length > 0 ? { version: 1, dirs } : null;
}
