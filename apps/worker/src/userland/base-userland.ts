import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '@agentry/platform';
import { aptSources, recipeHash, SANDBOX_USER, USERLAND_STAMP, type BaseRecipe } from './base-recipe.js';
import { buildOnce } from './build-lock.js';
import { runLogged } from './run-logged.js';

/** A base build that has not finished in this long is given up (and its lock taken over by the next). */
const BUILD_TIMEOUT_MS = 45 * 60_000;

/**
 * The sandboxes' base root filesystem: a Debian system built by mmdebstrap from `recipe`, cached under
 * `<cacheDir>/base/<recipe hash>/root` and built at most once per cache (whatever the number of workers
 * or test runs sharing it). A built userland is never changed again; a new recipe is a new directory.
 */
export class BaseUserland {
  readonly id: string;
  private building: Promise<string> | undefined;

  constructor(
    private readonly recipe: BaseRecipe,
    private readonly cacheDir: string,
    private readonly mmdebstrap: string,
    private readonly clock: Clock,
  ) {
    this.id = recipeHash(recipe);
  }

  get dir(): string {
    return join(this.cacheDir, 'base', this.id);
  }

  get root(): string {
    return join(this.dir, 'root');
  }

  ready(): boolean {
    return existsSync(this.root);
  }

  /** The root, built first if this cache has none yet. */
  ensure(): Promise<string> {
    if (this.ready()) return Promise.resolve(this.root);
    this.building ??= this.buildOnce().finally(() => (this.building = undefined));
    return this.building;
  }

  private async buildOnce(): Promise<string> {
    const base = join(this.cacheDir, 'base');
    await mkdir(base, { recursive: true, mode: 0o755 });
    await buildOnce(join(base, `${this.id}.lock`), this.dir, BUILD_TIMEOUT_MS, this.clock, () =>
      this.build(),
    );
    return this.root;
  }

  private async build(): Promise<void> {
    const work = `${this.dir}.build-${process.pid}`;
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    await writeFile(join(work, 'recipe.json'), JSON.stringify(this.recipe, null, 2));
    const log = createWriteStream(join(work, 'build.log'));
    try {
      await runLogged(this.mmdebstrap, this.arguments(join(work, 'root')), log, BUILD_TIMEOUT_MS);
    } catch (error) {
      const tail = (await readFile(join(work, 'build.log'), 'utf8').catch(() => '')).slice(-2_000);
      await rm(work, { recursive: true, force: true });
      throw new Error(`the sandbox userland could not be built: ${(error as Error).message}\n${tail}`);
    } finally {
      log.end();
    }
    await rename(work, this.dir);
  }

  private arguments(target: string): string[] {
    const { recipe } = this;
    return [
      '--variant=apt',
      '--mode=auto',
      '--format=directory',
      `--architectures=${recipe.architecture}`,
      `--include=${recipe.packages.join(',')}`,
      `--customize-hook=${customizeHook(this.id)}`,
      recipe.suite,
      target,
      ...aptSources(recipe),
    ];
  }
}

/**
 * Run by mmdebstrap on the finished tree (`$1`): the sandbox user, apt and pip set up for a root that
 * is read-only at run time and built into by an unprivileged user namespace, and the recipe's stamp.
 */
function customizeHook(id: string): string {
  const { name, uid, gid } = SANDBOX_USER;
  return [
    'set -e',
    // Sandboxes and layer builds map one user: ownership by any other (`_apt`, `shadow`, …) only gets in the way.
    'find "$1" -xdev ! -user 0 -exec chown -h 0:0 {} + ; find "$1" -xdev ! -group 0 -exec chgrp -h 0 {} +',
    `echo '${name}:x:${uid}:${gid}:sandbox user:/workspace:/bin/bash' >> "$1/etc/passwd"`,
    `echo '${name}:x:${gid}:' >> "$1/etc/group"`,
    // Package layers are built as root of a user namespace that maps no `_apt` user.
    `echo 'APT::Sandbox::User "root";' > "$1/etc/apt/apt.conf.d/90agentry"`,
    // The system's site-packages are read-only in a session: `pip install` lands in the user's home.
    `printf '[global]\\nbreak-system-packages = true\\n' > "$1/etc/pip.conf"`,
    `echo '${id}' > "$1${USERLAND_STAMP}"`,
  ].join('\n');
}
