import { createHash } from 'node:crypto';

export const PACKAGE_MANAGERS = ['apt', 'npm', 'pip', 'cargo', 'gem', 'go'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** An environment's `packages`, each list sorted and without repeats; managers with none are left out. */
export type PackageSet = Partial<Record<PackageManager, string[]>>;

/**
 * What each manager accepts as one package (a name with its usual version syntax). Lists reach the build as
 * arguments, never as shell text, but a name that is not a package fails here with a clear message rather
 * than in the middle of a build (and one starting with `-` could be read as an option).
 */
const PACKAGE_SPEC: Record<PackageManager, RegExp> = {
  apt: /^[a-z0-9][a-z0-9+.-]*(:[a-z0-9-]+)?(=[A-Za-z0-9.+:~-]+)?$/,
  npm: /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9~][\w.~-]*(@[\w.^~<>=*|+ -]+)?$/i,
  pip: /^[A-Za-z0-9][\w.-]*(\[[\w.,-]+\])?([<>=!~]=?[\w.*+!-]+(,[<>=!~]=?[\w.*+!-]+)*)?$/,
  cargo: /^[A-Za-z0-9][\w-]*(@[\w.^~<>=*+-]+)?$/,
  gem: /^[A-Za-z0-9][\w.-]*(:[\w.<>=~! -]+)?$/,
  go: /^[a-z0-9][\w.~/-]*(@[\w.+-]+)?$/i,
};

export class PackageSpecError extends Error {
  constructor(
    readonly manager: PackageManager,
    readonly spec: string,
  ) {
    super(`${manager} package "${spec}" is not a valid package name`);
  }
}

/** Reads an environment's `packages` (any of its lists may be missing or null). */
export function packageSetOf(packages: Partial<Record<string, unknown>> | null | undefined): PackageSet {
  const set: PackageSet = {};
  for (const manager of PACKAGE_MANAGERS) {
    const list = packages?.[manager];
    if (!Array.isArray(list) || list.length === 0) continue;
    const specs = [...new Set(list.map((v) => String(v).trim()))].sort();
    for (const spec of specs)
      if (!PACKAGE_SPEC[manager].test(spec)) throw new PackageSpecError(manager, spec);
    set[manager] = specs;
  }
  return set;
}

export function isEmptySet(set: PackageSet): boolean {
  return Object.keys(set).length === 0;
}

/** The key of a package layer: the same set over the same base is one layer, whichever environment asks. */
export function layerKey(baseId: string, set: PackageSet): string {
  const lists = PACKAGE_MANAGERS.flatMap((m) => (set[m] ? [[m, set[m]]] : []));
  return createHash('sha256')
    .update(JSON.stringify({ base: baseId, packages: lists }))
    .digest('hex')
    .slice(0, 32);
}

/** `apt: cowsay; npm: is-number@7.0.0`, for logs and messages. */
export function describeSet(set: PackageSet): string {
  return PACKAGE_MANAGERS.flatMap((m) => (set[m] ? [`${m}: ${set[m].join(', ')}`] : [])).join('; ');
}
