import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkerEnv } from '../config/env.js';
import { userlandOf } from '../userland/userland-of.js';

export interface MissingPackage {
  /** The Debian package that provides it. */
  package: string;
  /** What does not work without it. */
  effect: string;
}

/** Where `name` is on `path` (a PATH value), or undefined. */
export function onPath(name: string, path: string | undefined): string | undefined {
  if (name.includes('/')) return existsSync(name) ? name : undefined;
  return (path ?? '')
    .split(':')
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
}

/**
 * The system packages the Hands need on this host that it lacks: bubblewrap for every sandbox, mmdebstrap
 * while the sandboxes' userland is still to be built, and socat where sandboxes run on the host's own /usr
 * (a userland brings its own). The worker logs them at start and `npm start`'s banner names them.
 */
export function missingHandsPackages(config: WorkerEnv, path = process.env.PATH): MissingPackage[] {
  const missing: MissingPackage[] = [];
  if (!existsSync(config.AGENTRY_SANDBOX_BWRAP_PATH))
    missing.push({ package: 'bubblewrap', effect: 'no sandbox can start: every bash and file call fails' });
  const userland = userlandOf(config);
  if (
    config.AGENTRY_USERLAND === 'build' &&
    !userland?.ready() &&
    !onPath(config.AGENTRY_USERLAND_MMDEBSTRAP_PATH, path)
  )
    missing.push({
      package: 'mmdebstrap',
      effect: "the sandboxes' userland cannot be built: sandboxes cannot start",
    });
  if (
    !userland &&
    config.AGENTRY_SANDBOX_SOCAT_PATH !== '' &&
    !onPath(config.AGENTRY_SANDBOX_SOCAT_PATH, path)
  )
    missing.push({
      package: 'socat',
      effect: 'sandboxes cannot reach the network their environment asks for: every call fails and says why',
    });
  return missing;
}
