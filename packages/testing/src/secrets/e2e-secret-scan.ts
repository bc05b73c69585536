import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../launcher/repo-root.js';
import { SECRET_REGISTRY_ENV } from './secret-registry.js';
import { describeLeaks, scanForSecrets } from './secret-scanner.js';

/**
 * Vitest global setup of the e2e projects: opens a secret registry for the run (test files, in their own
 * processes, inherit its directory through the environment) and, once every file has run, scans the
 * service logs and the recorded responses and events for any registered secret, failing the run if one
 * appears.
 */
export function setup(): () => void {
  // One registry per run: the e2e projects share the first one opened, and its teardown scans for all.
  if (process.env[SECRET_REGISTRY_ENV]) return () => undefined;
  const dir = join(repoRoot(), 'test-results', 'secret-scan', `${Date.now()}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.env[SECRET_REGISTRY_ENV] = dir;
  return () => {
    const leaks = scanForSecrets(dir);
    if (!leaks.length) return;
    // Vitest reports an error thrown here but would still exit 0: the exit code makes the run fail.
    process.exitCode = 1;
    throw new Error(
      `secret scan: ${leaks.length} registered secret(s) appeared in logs, responses or events:\n${describeLeaks(leaks)}`,
    );
  };
}
