import { createHash } from 'node:crypto';
import { arch } from 'node:os';

/**
 * The "standard" toolchain every sandbox has, comparable to a managed agent's cloud container. `socat`
 * forwards the sandbox's proxy port to the egress proxy; `bubblewrap`, `mount` and `rsync` build package
 * layers from inside the userland itself, so the worker host needs none of them but bubblewrap.
 */
const STANDARD_PACKAGES = [
  'bash',
  'build-essential',
  'bubblewrap',
  'bzip2',
  'ca-certificates',
  'coreutils',
  'curl',
  'diffutils',
  'file',
  'findutils',
  'git',
  'gnupg',
  'jq',
  'less',
  'mount',
  'nodejs',
  'npm',
  'openssh-client',
  'patch',
  'procps',
  'python3',
  'python3-pip',
  'python3-venv',
  'ripgrep',
  'rsync',
  'socat',
  'tar',
  'unzip',
  'wget',
  'xz-utils',
  'zip',
] as const;

/** The sandbox user's name and ids (commands run as uid 1000; `/workspace` is its home). */
export const SANDBOX_USER = { name: 'user', uid: 1000, gid: 1000 } as const;

/** Where the userland records which recipe made it; a sandbox reads it to know whose root it is. */
export const USERLAND_STAMP = '/etc/agentry-userland';

/**
 * Bumped when what the build does changes (hooks, layout) without the recipe's fields changing, so a
 * userland made the old way is not taken for one made the new way.
 */
const RECIPE_FORMAT = 4;

export interface BaseRecipe {
  suite: string;
  mirror: string;
  /** Debian's security archive for the suite; empty: none. */
  securityMirror: string;
  architecture: string;
  packages: string[];
}

export function baseRecipe(options: {
  suite: string;
  mirror: string;
  securityMirror: string;
  extraPackages: readonly string[];
}): BaseRecipe {
  const packages = [...new Set([...STANDARD_PACKAGES, ...options.extraPackages])].sort();
  return {
    suite: options.suite,
    mirror: options.mirror.replace(/\/+$/, ''),
    securityMirror: options.securityMirror.replace(/\/+$/, ''),
    architecture: debianArchitecture(),
    packages,
  };
}

/** The recipe's content address: the same recipe always names the same cached userland. */
export function recipeHash(recipe: BaseRecipe): string {
  const canonical = JSON.stringify({ format: RECIPE_FORMAT, ...recipe });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** apt sources of the recipe: the suite, its updates and (if given) its security archive. */
export function aptSources(recipe: BaseRecipe): string[] {
  const { mirror, suite, securityMirror } = recipe;
  return [
    `deb ${mirror} ${suite} main`,
    `deb ${mirror} ${suite}-updates main`,
    ...(securityMirror ? [`deb ${securityMirror} ${suite}-security main`] : []),
  ];
}

function debianArchitecture(): string {
  const names: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'armhf', ppc64: 'ppc64el' };
  return names[arch()] ?? arch();
}
