import type { Command } from 'commander';

/** `agentry completion`: a bash completion script for the commands and their subcommands. */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a bash completion script: eval "$(agentry completion)"')
    .action(() => {
      const cases = program.commands
        .map((command) => {
          const subcommands = command.commands.map((c) => c.name()).join(' ');
          return subcommands ? `    ${command.name()}) words="${subcommands}" ;;` : '';
        })
        .filter(Boolean)
        .join('\n');
      const top = program.commands.map((c) => c.name()).join(' ');
      process.stdout.write(`_agentry() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words="${top}"
  if [ "$COMP_CWORD" -ge 2 ]; then
    case "\${COMP_WORDS[1]}" in
${cases}
    *) words="" ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _agentry agentry
`);
    });
}
