/** Inside the sandbox: where the shell's carried-over state and the egress proxy socket are bound. */
export const SHELL_STATE_MOUNT = '/run/agentry/shell';
export const EGRESS_MOUNT = '/run/agentry/egress';
export const EGRESS_SOCKET = 'proxy.sock';
/** The loopback port a command's HTTP(S)_PROXY points at, forwarded to the egress socket. */
export const EGRESS_LOCAL_PORT = 3128;

/**
 * The bash program every `bash` call runs: the command arrives on stdin; cwd and exported variables of
 * the previous call are restored first and saved again on exit (also on `exit N`), which is how state
 * carries across calls although each call is a fresh sandbox. When an egress forwarder is given it
 * listens on loopback before the command starts. `stateDir` and `workdir` are paths as the command sees
 * them (an E2B sandbox keeps its state in its own filesystem, not at the bubblewrap mount points).
 * Every program it starts is time on every call, so it reads with bash builtins (`read`, not `cat`).
 */
export function shellWrapper(
  forwarder: string | null,
  {
    stateDir = SHELL_STATE_MOUNT,
    workdir = '/workspace',
    renamedByHost = false,
  }: { stateDir?: string; workdir?: string; renamedByHost?: boolean } = {},
): string {
  // The variables go to env.next, renamed over env once complete: by an `mv` here, or (a program less per
  // call) by the host once the call ended by itself (SandboxShell).
  const save = renamedByHost
    ? `__agentry_save() { pwd > ${stateDir}/cwd; unset PWD OLDPWD SHLVL _ __agentry_cmd; export -p > ${stateDir}/env.next 2>/dev/null; }`
    : `__agentry_save() { ( unset PWD OLDPWD SHLVL _ __agentry_cmd; export -p ) > ${stateDir}/env.next 2>/dev/null && mv -f ${stateDir}/env.next ${stateDir}/env; pwd > ${stateDir}/cwd; }`;
  return [
    // `read -d ''` takes all of stdin (and ends false at its end); the saved cwd ends with pwd's newline.
    "IFS= read -r -d '' __agentry_cmd",
    'exec </dev/null',
    `[ -f ${stateDir}/env ] && . ${stateDir}/env`,
    `__agentry_cwd=; [ -f ${stateDir}/cwd ] && IFS= read -r -d '' __agentry_cwd < ${stateDir}/cwd`,
    `cd "\${__agentry_cwd%$'\\n'}" 2>/dev/null || cd ${workdir}`,
    'unset __agentry_cwd',
    save,
    'trap __agentry_save EXIT',
    ...egressForwarder(forwarder),
    'eval "$__agentry_cmd" 2>&1',
  ].join('\n');
}

/**
 * What a kept sandbox (one per session, see SandboxShell) runs once before its calls: the egress
 * forwarder, which then serves every call.
 */
export function keptSandboxSetup(forwarder: string | null): string {
  return egressForwarder(forwarder).join('\n');
}

/**
 * The program a stdio server of the session runs as: the egress forwarder first (as for `bash`), then
 * the server itself in the shell's place, its stdin and stdout left to the worker that bridges them.
 */
export function stdioServerWrapper(forwarder: string | null, command: string, args: string[]): string {
  return [...egressForwarder(forwarder), `exec ${[command, ...args].map(shellQuote).join(' ')}`].join('\n');
}

export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Lines that start the loopback proxy port's forwarder in the background and wait until it listens. */
function egressForwarder(forwarder: string | null): string[] {
  if (!forwarder) return [];
  const port = EGRESS_LOCAL_PORT.toString(16).toUpperCase().padStart(4, '0');
  return [
    `${forwarder} TCP-LISTEN:${EGRESS_LOCAL_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${EGRESS_MOUNT}/${EGRESS_SOCKET} >/dev/null 2>&1 </dev/null &`,
    `for ((__agentry_i = 0; __agentry_i < 200; __agentry_i++)); do __agentry_up=; while read -r _ __agentry_local __agentry_remote __agentry_state _; do [[ $__agentry_local == *:${port} && $__agentry_remote == 00000000:0000 && $__agentry_state == 0A ]] && __agentry_up=1 && break; done </proc/net/tcp; [ -n "$__agentry_up" ] && break; sleep 0.01; done; unset __agentry_i __agentry_up __agentry_local __agentry_remote __agentry_state`,
  ];
}
