/**
 * The bash program a kept sandbox runs as its first process. `setup` runs once (the egress forwarder), then
 * it answers `ready` on fd 3 and reads requests on stdin:
 * - `run <end>` on a line, then the call's exported variables (`export K='v'` lines) and its input, each
 *   ended by a NUL: runs `program` after those exports, with that input (and a newline) as its stdin, in a
 *   process group of its own; reports `pid <pid>` on fd 3, and when it exits kills what is left of its
 *   group and writes `<end> <code>` on stdout after the call's output (stderr goes there too), which is how
 *   the host knows the output is whole;
 * - `kill <pid>`: kills that call's process group (a timeout or cancel), the sandbox stays.
 * Nothing of a call is written to a file the sandbox can see. Everything here is a bash builtin but the
 * call's own start, so the supervisor keeps working when the process cap is reached.
 */
export function supervisorScript(setup: string, program: string): string {
  return [
    setup,
    `__agentry_program=${quote(program)}`,
    'exec 4<&0 </dev/null',
    "printf 'ready\\n' >&3",
    'while IFS= read -r __agentry_req <&4; do',
    '  case $__agentry_req in',
    '    run\\ *)',
    "      IFS= read -r -d '' __agentry_exports <&4",
    "      IFS= read -r -d '' __agentry_in <&4",
    // Job control gives the call a process group of its own without a `setsid` to start each time.
    '      { set -m',
    '        /bin/bash -c "$__agentry_exports$__agentry_program" <<<"$__agentry_in" 2>&1 3>&- 4<&- &',
    '        __agentry_pid=$!',
    '        printf \'pid %s\\n\' "$__agentry_pid" >&3',
    '        wait "$__agentry_pid"; __agentry_code=$?',
    '        kill -KILL -- "-$__agentry_pid" 2>/dev/null',
    '        printf \'%s %s\\n\' "${__agentry_req#run }" "$__agentry_code"',
    '      } 4<&- 2>/dev/null &',
    '      ;;',
    '    kill\\ *)',
    '      __agentry_pid=${__agentry_req#kill }',
    '      [[ $__agentry_pid =~ ^[0-9]+$ ]] && kill -KILL -- "-$__agentry_pid" 2>/dev/null',
    '      ;;',
    '  esac',
    'done',
  ].join('\n');
}

export function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
