#!/usr/bin/env node
import { CommanderError } from 'commander';
import { CliError, EXIT } from './errors.js';
import { buildProgram } from './program.js';

const program = buildProgram();
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; any other parse error is a usage error.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (error instanceof CliError) {
    process.stderr.write(`agentry: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`agentry: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT.failure;
  }
}
