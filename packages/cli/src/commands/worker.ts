import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { CliError } from '../errors.js';

/** The worker's own entry point in this monorepo; the CLI runs it as a process, never imports it. */
function workerEntry(): string {
  return (
    process.env.AGENTRY_WORKER_ENTRY ??
    fileURLToPath(new URL('../../../../apps/worker/dist/main.js', import.meta.url))
  );
}

/** `agentry worker …`: the self-hosted worker, with every further argument passed to it. */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'run the self-hosted worker (arguments after `--` go to it, e.g. --environment-id, --workdir)',
    )
    .allowUnknownOption()
    .argument('[args...]')
    .action(async (args: string[]) => {
      const entry = workerEntry();
      if (!existsSync(entry)) throw new CliError(`the worker is not built (${entry}): run pnpm build`);
      const child = spawn(process.execPath, [entry, '--self-hosted', ...args], { stdio: 'inherit' });
      const forward = (signal: NodeJS.Signals) => child.kill(signal);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
      process.exitCode = code;
    });
}
