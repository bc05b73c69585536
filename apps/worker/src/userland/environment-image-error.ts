import { SandboxUnavailableError } from '../sandbox/session-sandbox.js';
import { LayerBuildError } from './package-layer-builder.js';
import type { PackageManager } from './package-set.js';
import { PackageSpecError } from './package-set.js';

/**
 * Why a session's sandbox has no root filesystem to run on: the base userland is missing, or its
 * environment's packages could not be installed (`package` names the one that failed, when known).
 */
export class EnvironmentImageError extends SandboxUnavailableError {
  constructor(
    message: string,
    readonly failedPackage: { manager: PackageManager; name: string } | null = null,
  ) {
    super(message);
  }

  /** What the tool result says: the call did not run, and where to read more. */
  describe(environmentId: string): string {
    const log = environmentId ? ` (its build log: GET /v1/environments/${environmentId}/build/log)` : '';
    return `The environment's sandbox image could not be prepared: ${this.message}${log}; the call did not run`;
  }

  static from(error: Error): EnvironmentImageError {
    if (error instanceof EnvironmentImageError) return error;
    if (error instanceof LayerBuildError && error.manager && error.spec)
      return new EnvironmentImageError(error.message, { manager: error.manager, name: error.spec });
    if (error instanceof PackageSpecError)
      return new EnvironmentImageError(error.message, { manager: error.manager, name: error.spec });
    return new EnvironmentImageError(error.message);
  }
}
