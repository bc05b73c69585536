import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { Api } from '../api.js';
import { configPath, resolveConfig, saveConfig, type CliConfig, type GlobalFlags } from '../config.js';
import { CliError, EXIT } from '../errors.js';

/** `agentry login`: a user token (username + password) or an API key, saved to the config file. */
export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('sign in with a username and password, or save an API key; both are checked first')
    .option('--username <name>', 'user name (asked when missing and a terminal is attached)')
    .option('--password <password>', 'password (default: AGENTRY_PASSWORD; asked when missing)')
    .option('--tenant <tenant>', 'the tenant, when the user name is used in several')
    .action(async (flags: { username?: string; password?: string; tenant?: string }) => {
      const global = program.opts<GlobalFlags>();
      const base = resolveConfig({ ...global, token: undefined, apiKey: undefined });
      let config: CliConfig = { url: base.url, ...(base.namespace ? { namespace: base.namespace } : {}) };
      if (global.apiKey) config.apiKey = global.apiKey;
      else {
        const username = flags.username ?? (await ask('username: '));
        const password = flags.password ?? process.env.AGENTRY_PASSWORD ?? (await ask('password: '));
        const reply = await new Api(config).call<{ token: string; username: string; roles: string[] }>(
          'POST',
          '/api/auth/login',
          { username, password, ...(flags.tenant ? { tenant: flags.tenant } : {}) },
        );
        config = { ...config, token: reply.token };
        process.stdout.write(`signed in as ${reply.username} (${reply.roles.join(', ')})\n`);
      }
      await new Api(config).call('GET', '/v1/agents', undefined, { limit: 1 });
      saveConfig(config);
      process.stdout.write(`saved to ${configPath()}\n`);
    });
}

async function ask(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new CliError(`missing ${question.replace(/: $/, '')}`, EXIT.usage);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}
