import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { dbPackageDir } from './migration-paths.js';
import { MigrationError } from './migration.error.js';

export interface ApplyMigrationsOptions {
  /** Milliseconds before the migrate process is killed (default 120 000). */
  timeoutMs?: number;
  /**
   * The @agentry/db package whose migrations are applied, with its own Prisma CLI (default: this one). An
   * upgrade test points it at the previous release's tree to build the database that release left behind.
   */
  packageDir?: string;
}

const OUTPUT_TAIL_CHARS = 4_000;

/**
 * Applies every committed migration not yet applied to `databaseUrl` (`prisma migrate deploy`).
 * It runs the Prisma CLI in a child process from this package's directory, so prisma.config.ts
 * (offline Wasm schema engine) is picked up whether the caller runs from source or from dist.
 */
export async function applyMigrations(
  databaseUrl: string,
  options: ApplyMigrationsOptions = {},
): Promise<void> {
  const packageDir = options.packageDir ?? dbPackageDir();
  const cli = createRequire(join(packageDir, 'package.json')).resolve('prisma/build/index.js');
  const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
    cwd: packageDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const timeoutMs = options.timeoutMs ?? 120_000;
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new MigrationError(`could not start the Prisma CLI: ${error.message}`, output, { cause: error }),
      );
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolvePromise(exitCode);
    });
  });
  if (code !== 0) {
    const reason = code === null ? `timed out after ${timeoutMs} ms` : `exited with code ${code}`;
    throw new MigrationError(`prisma migrate deploy ${reason}`, output);
  }
}
