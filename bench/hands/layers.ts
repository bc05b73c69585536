import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The test package set: one Debian package and one npm package. */
export const PACKAGES = { apt: ['cowsay'], npm: ['is-number@7.0.0'] };

/** Removes the test package set's layer from the userland cache, so the next session builds it. */
export async function dropCachedLayer(
  cache = process.env.AGENTRY_USERLAND_CACHE_DIR ?? '/var/cache/agentry/userland',
) {
  const layers = join(cache, 'layers');
  for (const layer of await readdir(layers).catch(() => [] as string[])) {
    const packages = await readFile(join(layers, layer, 'packages.json'), 'utf8').catch(() => '');
    if (packages && JSON.stringify(JSON.parse(packages)) === JSON.stringify(PACKAGES))
      await rm(join(layers, layer), { recursive: true, force: true });
  }
}
