import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo-root.js';

/** Written last: a tree without it is a build that was interrupted, and is made again. */
const BUILT_MARK = '.release-built';

/**
 * The built tree of another commit of this repository (a previous release), for a test that runs the
 * services of two releases side by side. Made once into `.cache/releases/<commit>/` (outside the source
 * tree, ignored by git): the commit's files from `git archive`, its locked dependencies from the local
 * store (`pnpm install --offline --frozen-lockfile`, the registry only for what the store lacks), then
 * `pnpm build`. Later calls reuse it.
 * Takes minutes the first time.
 */
export function releaseBuild(ref: string, root: string = repoRoot()): string {
  const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const tree = join(root, '.cache', 'releases', commit);
  if (existsSync(join(tree, BUILT_MARK))) return tree;
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const run = (command: string, args: string[], cwd: string) =>
    execFileSync(command, args, {
      cwd,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 ** 2,
    });
  const archive = run('git', ['archive', '--format=tar', commit], root);
  execFileSync('tar', ['-x', '-C', tree], { input: archive, maxBuffer: 256 * 1024 ** 2 });
  try {
    run('pnpm', ['install', '--offline', '--frozen-lockfile', '--reporter=silent'], tree);
  } catch {
    // A package of the old lockfile no longer in the local store: fetched from the configured registry.
    run('pnpm', ['install', '--prefer-offline', '--frozen-lockfile', '--reporter=silent'], tree);
  }
  run('pnpm', ['build'], tree);
  writeFileSync(join(tree, BUILT_MARK), `${commit}\n`);
  return tree;
}
