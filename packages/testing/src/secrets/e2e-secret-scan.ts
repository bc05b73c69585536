import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../launcher/repo-root.js';
import { SECRET_REGISTRY_ENV } from './secret-registry.js';
import { describeLeaks, scanForSecrets } from './secret-scanner.js';

/**
 * Vitest global setup of each e2e project: opens a secret registry for the run (test files, in their own
 * processes, inherit its directory through the environment) and, once every file has run, scans the
 * service logs and the recorded responses and events for any registered secret, failing the run if one
 * appears.
 */
export function setup(): () => void {
  // Each e2e project opens its own; a later one takes over the variable, and every teardown scans its own.
  const dir = join(repoRoot(), 'test-results', 'secret-scan', `${Date.now()}-${process.pid}-${randomUUID()}`);
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
