import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The directory of one test run's secret registry, set by the e2e global setup. Test files run in other
 * processes, so everything is appended to files there, one line per entry, never kept in memory.
 */
export const SECRET_REGISTRY_ENV = 'AGENTRY_TEST_SECRETS_DIR';

export const REGISTRY_FILES = {
  secrets: 'secrets.jsonl',
  /** Directories of the platforms launched in the run, whose service logs are scanned. */
  runDirs: 'run-dirs.txt',
  /** What the services sent back to read requests and streams, one file per process. */
  observed: 'observed',
} as const;

/** Shorter values (e.g. the default `admin` password) would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

export interface RegisteredSecret {
  label: string;
  value: string;
}

function registryDir(): string | null {
  return process.env[SECRET_REGISTRY_ENV] || null;
}

/**
 * Registers a secret a test created (a credential value, an API key, a token, a password, a signing key):
 * the scan at the end of the e2e run fails if it appears in any service log or recorded response or event.
 * A no-op outside a registry-enabled run.
 */
export function registerSecret(label: string, value: string | null | undefined): void {
  const dir = registryDir();
  if (!dir || !value || value.length < MIN_SECRET_LENGTH) return;
  appendFileSync(
    join(dir, REGISTRY_FILES.secrets),
    `${JSON.stringify({ label, value } satisfies RegisteredSecret)}\n`,
  );
}

/** Registers every value of a record of secrets under `<label>.<key>`. */
export function registerSecrets(label: string, values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) registerSecret(`${label}.${key}`, value);
}

/** Records the run directory of a launched platform: its service logs are scanned at the end. */
export function registerRunDir(runDir: string): void {
  const dir = registryDir();
  if (dir) appendFileSync(join(dir, REGISTRY_FILES.runDirs), `${runDir}\n`);
}

/**
 * Records what a service sent back (a read response, an event frame) for the scan. Responses that create
 * a secret may show it once (a new API key), so callers record reads and streams, not creations.
 */
export function recordObserved(what: string, text: string): void {
  const dir = registryDir();
  if (!dir || !text) return;
  const observed = join(dir, REGISTRY_FILES.observed);
  mkdirSync(observed, { recursive: true });
  appendFileSync(join(observed, `${process.pid}.log`), `${what}\t${text}\n`);
}
