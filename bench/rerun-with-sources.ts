import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs the bench at `entry` (its `import.meta.url`) again in a child that resolves workspace packages to
 * their TypeScript sources, and exits with the child's status; in that child it returns at once.
 */
export function rerunWithSources(
  entry: string,
  env: Record<string, string> = { AGENTRY_LOG_LEVEL: 'warn' },
): void {
  if (process.env.AGENTRY_BENCH_CHILD) return;
  const child = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', fileURLToPath(entry), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, AGENTRY_BENCH_CHILD: '1', ...env } },
  );
  process.exit(child.status ?? 1);
}
