import { existsSync, lstatSync, readlinkSync } from 'node:fs';

export interface SandboxLimits {
  /** CPU seconds (RLIMIT_CPU). */
  cpuSeconds?: number;
  /** Address-space bytes (RLIMIT_AS); leave unset for runtimes that reserve large virtual ranges. */
  memoryBytes?: number;
  /** Largest file a command may write (RLIMIT_FSIZE). */
  fileSizeBytes?: number;
  /** Open files (RLIMIT_NOFILE). */
  openFiles?: number;
  /** Processes of the sandbox user (RLIMIT_NPROC). */
  processes?: number;
  /** Data segment bytes (RLIMIT_DATA): the memory cap where no memory cgroup is delegated. */
  dataBytes?: number;
}

export interface BwrapCommand {
  bwrapPath: string;
  prlimitPath: string;
  hostRoot: string;
  mountPoint: string;
  cwd: string;
  network: boolean;
  /** Run as this uid/gid inside a new user namespace (null: keep the caller's identity). */
  identity: { uid: number; gid: number } | null;
  env: Record<string, string>;
  limits: SandboxLimits;
  readOnlyBinds: string[];
  /** Extra host paths bound at another place inside (e.g. a per-session state directory or socket). */
  binds: SandboxBind[];
  /** Size cap of the sandbox's private /tmp (a tmpfs, so it is memory): unset = the kernel default. */
  tmpfsBytes?: number;
  /**
   * The root filesystem the sandbox sees (a directory holding usr/, etc/, var/ …): its system directories
   * are bound read-only in place of the host's. Unset: the host's /usr and a few /etc files.
   */
  rootfs?: string;
  /**
   * cgroup directories (one per v1 controller, or one v2 directory) the sandbox joins before it starts,
   * so its processes, memory and CPU are the session's to cap.
   */
  cgroups?: readonly string[];
  /** The shell that runs `command` (`-c`). */
  shell: string;
  command: string;
}

export interface SandboxBind {
  host: string;
  sandbox: string;
  readOnly?: boolean;
}

// Top-level system directories: bound read-only, or recreated as the same symlink (merged /usr layouts).
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
// Only the parts of /etc programs need; never the whole host /etc.
const ETC_FILES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/localtime',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/hosts',
];

// A root filesystem's own directories bound read-only; the rest (proc, dev, tmp, run, mounts) are the sandbox's.
const ROOTFS_DIRS = ['/usr', '/etc', '/var', '/opt', '/srv', '/home', ...SYSTEM_DIRS];

function hostSystemBinds(network: boolean): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const file of network ? [...ETC_FILES, '/etc/resolv.conf'] : ETC_FILES)
    args.push('--ro-bind-try', file, file);
  return args;
}

/** The binds of a root filesystem; which of its top-level entries exist is read once per root. */
const rootfsBindCache = new Map<string, string[]>();
function rootfsBinds(rootfs: string): string[] {
  const cached = rootfsBindCache.get(rootfs);
  if (cached) return cached;
  const args: string[] = [];
  for (const dir of ROOTFS_DIRS) {
    const host = rootfs + dir;
    if (!existsSync(host) && !isSymlink(host)) continue;
    const stat = lstatSync(host);
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(host), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', host, dir);
  }
  rootfsBindCache.set(rootfs, args);
  return args;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function limitArgs(limits: SandboxLimits): string[] {
  const args: string[] = [];
  const add = (flag: string, value: number | undefined) =>
    value !== undefined && args.push(`--${flag}=${Math.floor(value)}`);
  add('cpu', limits.cpuSeconds);
  add('as', limits.memoryBytes);
  add('fsize', limits.fileSizeBytes);
  add('nofile', limits.openFiles);
  add('nproc', limits.processes);
  add('data', limits.dataBytes);
  return args;
}

/** The argv that runs one command in a fresh bubblewrap sandbox (prlimit sets the limits bwrap inherits). */
export function buildBwrapArgv(c: BwrapCommand): string[] {
  const argv = [c.bwrapPath, '--unshare-all'];
  if (c.network) argv.push('--share-net');
  if (c.identity)
    argv.push('--unshare-user', '--uid', String(c.identity.uid), '--gid', String(c.identity.gid));
  argv.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'sandbox');
  argv.push(...(c.rootfs ? rootfsBinds(c.rootfs) : hostSystemBinds(c.network)));
  argv.push('--proc', '/proc', '--dev', '/dev');
  if (c.tmpfsBytes !== undefined) argv.push('--size', String(Math.floor(c.tmpfsBytes)));
  argv.push('--tmpfs', '/tmp');
  // After the private /tmp, so an installation path under /tmp is not hidden by it.
  for (const path of c.readOnlyBinds) argv.push('--ro-bind', path, path);
  argv.push('--bind', c.hostRoot, c.mountPoint);
  for (const bind of c.binds) argv.push(bind.readOnly ? '--ro-bind' : '--bind', bind.host, bind.sandbox);
  argv.push('--chdir', c.cwd, '--clearenv');
  for (const [key, value] of Object.entries(c.env)) argv.push('--setenv', key, value);
  argv.push('--', c.shell, '-c', c.command);
  const limits = limitArgs(c.limits);
  const limited = limits.length > 0 ? [c.prlimitPath, ...limits, '--', ...argv] : argv;
  // The process joins the cgroups before exec, so nothing it forks escapes the caps.
  const cgroups = c.cgroups ?? [];
  if (cgroups.length === 0) return limited;
  const join = cgroups.map((_, i) => `echo $$ > "$${i + 1}/cgroup.procs"`).join(' && ');
  return ['/bin/sh', '-c', `${join} && shift ${cgroups.length} && exec "$@"`, 'sh', ...cgroups, ...limited];
}
