import { SystemClock, type Clock } from '@agentry/platform';
import type { WorkerEnv } from '../config/env.js';
import { baseRecipe } from './base-recipe.js';
import { BaseUserland } from './base-userland.js';
import { PreparedUserland, type UserlandBase } from './prepared-userland.js';

/** The sandboxes' base userland as configured; null: the host's own /usr (`AGENTRY_USERLAND=host`). */
export function userlandOf(config: WorkerEnv, clock: Clock = new SystemClock()): UserlandBase | null {
  const choice = config.AGENTRY_USERLAND;
  if (choice === 'host') return null;
  if (choice !== 'build') return new PreparedUserland(choice);
  const recipe = baseRecipe({
    suite: config.AGENTRY_USERLAND_SUITE,
    mirror: config.AGENTRY_USERLAND_MIRROR,
    securityMirror: config.AGENTRY_USERLAND_SECURITY_MIRROR,
    extraPackages: config.AGENTRY_USERLAND_EXTRA_PACKAGES,
  });
  return new BaseUserland(
    recipe,
    config.AGENTRY_USERLAND_CACHE_DIR,
    config.AGENTRY_USERLAND_MMDEBSTRAP_PATH,
    clock,
  );
}
