import { Command } from 'commander';
import { registerApply } from './commands/apply.js';
import { registerChat } from './commands/chat.js';
import { registerCompletion } from './commands/completion.js';
import { registerEventsExport } from './commands/events-export.js';
import { registerLogin } from './commands/login.js';
import { registerResourceCommands } from './commands/resources.js';
import { registerSessionStreams } from './commands/session-stream.js';
import { registerWorker } from './commands/worker.js';
import { contextOf } from './context.js';

/** Every command of `agentry`, with the global flags (which also come from env vars and the config file). */
export function buildProgram(): Command {
  const program = new Command('agentry')
    .description('Agentry from the command line: resources, live sessions, apply')
    .option('--url <url>', 'the gateway (AGENTRY_URL; default http://127.0.0.1:8080)')
    .option('--token <token>', 'a user token (AGENTRY_TOKEN)')
    .option('--api-key <key>', 'an API key (AGENTRY_API_KEY)')
    .option('--namespace <id>', 'act in this namespace (AGENTRY_NAMESPACE)')
    .option('--json', 'print JSON instead of tables')
    .showHelpAfterError()
    // Parse errors throw (see main.ts) in every subcommand too, so they exit with the usage code.
    .exitOverride();
  const context = contextOf(program);
  registerLogin(program);
  registerResourceCommands(program, context);
  registerSessionStreams(program, context);
  registerChat(program, context);
  registerEventsExport(program, context);
  registerApply(program, context);
  registerWorker(program);
  registerCompletion(program);
  return program;
}
