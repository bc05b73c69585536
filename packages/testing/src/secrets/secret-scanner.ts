import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRY_FILES, type RegisteredSecret } from './secret-registry.js';

export interface SecretLeak {
  label: string;
  file: string;
  line: number;
}

/** Every registered secret found in the service logs of the run's platforms and in what tests observed. */
export function scanForSecrets(registryDir: string): SecretLeak[] {
  const secrets = readSecrets(registryDir);
  if (!secrets.length) return [];
  const leaks: SecretLeak[] = [];
  for (const file of scannedFiles(registryDir)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, index) => {
      for (const secret of secrets) {
        if (text.includes(secret.value)) leaks.push({ label: secret.label, file, line: index + 1 });
      }
    });
  }
  return leaks;
}

/** A report naming where each leak is, never the secret itself. */
export function describeLeaks(leaks: SecretLeak[]): string {
  return leaks.map((leak) => `${leak.label} in ${leak.file}:${leak.line}`).join('\n');
}

function readSecrets(registryDir: string): RegisteredSecret[] {
  const path = join(registryDir, REGISTRY_FILES.secrets);
  if (!existsSync(path)) return [];
  const unique = new Map<string, RegisteredSecret>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const secret = JSON.parse(line) as RegisteredSecret;
    if (!unique.has(secret.value)) unique.set(secret.value, secret);
  }
  return [...unique.values()];
}

/** The `.log` files at the top of each launched platform's run directory, and the observed files. */
function scannedFiles(registryDir: string): string[] {
  const runDirsPath = join(registryDir, REGISTRY_FILES.runDirs);
  const runDirs = existsSync(runDirsPath)
    ? readFileSync(runDirsPath, 'utf8').split('\n').filter(Boolean)
    : [];
  const logs = [...new Set(runDirs)]
    .filter(existsSync)
    .flatMap((dir) => filesIn(dir, (name) => name.endsWith('.log')));
  return [...logs, ...filesIn(join(registryDir, REGISTRY_FILES.observed), () => true)];
}

function filesIn(dir: string, accept: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && accept(entry.name))
    .map((entry) => join(dir, entry.name));
}
