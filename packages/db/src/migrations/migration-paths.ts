import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits two levels below the package root both as source (src/migrations) and as
// build output (dist/migrations), so the same relative hop works from tests and from dist.
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Root of the @agentry/db package (where prisma.config.ts lives). */
export function dbPackageDir(): string {
  return packageDir;
}

/** The committed migrations; their content identifies a schema version. */
export function migrationsDir(): string {
  return join(packageDir, 'prisma', 'migrations');
}
