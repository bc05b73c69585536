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
 */
export function shellWrapper(
  forwarder: string | null,
  { stateDir = SHELL_STATE_MOUNT, workdir = '/workspace' }: { stateDir?: string; workdir?: string } = {},
): string {
  return [
    '__agentry_cmd=$(cat)',
    'exec </dev/null',
    `[ -f ${stateDir}/env ] && . ${stateDir}/env`,
    `cd "$(cat ${stateDir}/cwd 2>/dev/null)" 2>/dev/null || cd ${workdir}`,
    `__agentry_save() { ( unset PWD OLDPWD SHLVL _ __agentry_cmd; export -p ) > ${stateDir}/env.next 2>/dev/null && mv -f ${stateDir}/env.next ${stateDir}/env; pwd > ${stateDir}/cwd; }`,
    'trap __agentry_save EXIT',
    ...egressForwarder(forwarder),
    'eval "$__agentry_cmd" 2>&1',
  ].join('\n');
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
    `for __agentry_i in $(seq 200); do grep -q ':${port} 00000000:0000 0A' /proc/net/tcp 2>/dev/null && break; sleep 0.01; done; unset __agentry_i`,
  ];
}
