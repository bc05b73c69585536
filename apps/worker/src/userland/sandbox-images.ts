import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { EnvironmentBuildsClient } from './environment-builds.client.js';
import { EnvironmentImageError } from './environment-image-error.js';
import { PackageLayerBuilder } from './package-layer-builder.js';
import {
  describeSet,
  isEmptySet,
  layerKey,
  packageSetOf,
  PackageSpecError,
  type PackageSet,
} from './package-set.js';
import { registryHosts } from './registries.js';
import type { UserlandBase } from './prepared-userland.js';
import { userlandOf } from './userland-of.js';

/** How long a failed package set is answered with its failure before a call builds it again. */
const FAILURE_MEMORY_MS = 60_000;
/** How often a running build's log is sent to control, so the build log route shows it progressing. */
const PROGRESS_INTERVAL_MS = 3_000;

interface Requester {
  tenantId: string;
  environmentId: string;
}

/**
 * The root filesystems sessions' sandboxes run on: the base userland, and one package layer per distinct
 * package set over it, each built once and shared by every session of every environment asking for that
 * set (concurrent asks wait for the same build), kept in the cache across restarts. Each environment
 * waiting on a build has its progress and outcome recorded with control.
 */
@Injectable()
export class SandboxImages implements OnApplicationBootstrap {
  readonly base: UserlandBase | null;
  private readonly builder: PackageLayerBuilder;
  private readonly building = new Map<string, { done: Promise<string>; waiting: Set<string> }>();
  private readonly failed = new Map<string, { error: EnvironmentImageError; at: number }>();
  /** Package layers this worker built (not found in the cache), since it started. */
  layerBuilds = 0;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reports: EnvironmentBuildsClient,
  ) {
    this.base = userlandOf(config, clock);
    this.builder = new PackageLayerBuilder(config, clock);
  }

  /** A worker whose cache has no base yet starts building it at once, not at its first tool call. */
  onApplicationBootstrap(): void {
    if (!this.base || this.base.ready()) return;
    this.logger.info({ userland: this.base.id }, 'building the sandbox userland');
    this.base.ensure().then(
      () => this.logger.info({ userland: this.base?.id }, 'the sandbox userland is ready'),
      (err: unknown) => this.logger.error({ err }, 'the sandbox userland could not be built'),
    );
  }

  /**
   * The root filesystem of a session's sandbox (null: the host's /usr) and the hosts its environment's
   * `allow_package_managers` opens. A failure is an EnvironmentImageError that names the environment.
   */
  async imageFor(
    tenantId: string,
    sessionId: string,
  ): Promise<{ rootfs: string | null; extraAllowedHosts: string[] }> {
    if (!this.base) return { rootfs: null, extraAllowedHosts: [] };
    const environment = await this.reports.handsConfig(tenantId, sessionId).catch((error: unknown) => {
      // A session control does not know (a test harness, one being deleted) runs on the base alone.
      if (AppError.is(error, 'NOT_FOUND'))
        return { environmentId: '', packages: null, allowPackageManagers: false };
      throw new EnvironmentImageError(
        `the environment's packages could not be read: ${(error as Error).message}`,
      );
    });
    const requester = { tenantId, environmentId: environment.environmentId };
    try {
      const rootfs = await this.rootFor(requester, packageSetOf(environment.packages));
      return {
        rootfs,
        extraAllowedHosts: environment.allowPackageManagers ? registryHosts(this.config) : [],
      };
    } catch (error) {
      const failure = EnvironmentImageError.from(error as Error);
      if (error instanceof PackageSpecError)
        await this.report(requester, { [error.manager]: [error.spec] }, { status: 'failed', error: failure });
      throw new EnvironmentImageError(failure.describe(environment.environmentId), failure.failedPackage);
    }
  }

  /** The root for a session of an environment with `set`; null: the host's own /usr. */
  async rootFor(requester: Requester, set: PackageSet): Promise<string | null> {
    if (!this.base) return null;
    const baseRoot = await this.base.ensure().catch((error: unknown) => {
      throw new EnvironmentImageError(`the sandbox userland is not available: ${(error as Error).message}`);
    });
    if (isEmptySet(set)) return baseRoot;
    const key = layerKey(this.base.id, set);
    const root = join(this.builder.layersDir(), key, 'root');
    if (existsSync(root)) {
      void this.reportBuilt(requester, set, key);
      return root;
    }
    const failure = this.failed.get(key);
    if (failure && this.clock.nowMs() - failure.at < FAILURE_MEMORY_MS) throw failure.error;
    let build = this.building.get(key);
    if (!build) {
      build = { done: Promise.resolve(''), waiting: new Set() };
      const started = build;
      build.done = this.build(key, set, baseRoot, started.waiting).finally(() => this.building.delete(key));
      this.building.set(key, build);
    }
    build.waiting.add(JSON.stringify(requester));
    return build.done;
  }

  private async build(key: string, set: PackageSet, baseRoot: string, waiting: Set<string>): Promise<string> {
    const startedAt = new Date(this.clock.nowMs()).toISOString();
    const logFile = join(this.builder.layersDir(), `${key}.log`);
    const everyone = () => [...waiting].map((w) => JSON.parse(w) as Requester);
    const progress = setInterval(() => {
      void readLog(logFile).then((log) =>
        Promise.all(everyone().map((r) => this.report(r, set, { status: 'building', startedAt, log }))),
      );
    }, PROGRESS_INTERVAL_MS);
    this.logger.info({ layer: key, packages: describeSet(set) }, 'building a package layer');
    try {
      await this.builder.build(key, set, baseRoot, logFile, startedAt);
      this.layerBuilds += 1;
      this.logger.info({ layer: key }, 'package layer built');
      const built = await this.builder.builtInfo(key);
      await Promise.all(everyone().map((r) => this.report(r, set, { status: 'ready', ...built })));
      return join(this.builder.layersDir(), key, 'root');
    } catch (cause) {
      const error = EnvironmentImageError.from(cause as Error);
      this.failed.set(key, { error, at: this.clock.nowMs() });
      this.logger.warn({ layer: key, err: error.message }, 'package layer build failed');
      const log = await readLog(logFile);
      await Promise.all(
        everyone().map((r) => this.report(r, set, { status: 'failed', startedAt, log, error })),
      );
      throw error;
    } finally {
      clearInterval(progress);
    }
  }

  /** A layer built before (by this worker or another sharing the cache) is reported as that build ended. */
  private async reportBuilt(requester: Requester, set: PackageSet, key: string): Promise<void> {
    const built = await this.builder.builtInfo(key);
    await this.report(requester, set, { status: 'ready', ...built });
  }

  private report(
    requester: Requester,
    set: PackageSet,
    state: {
      status: 'building' | 'ready' | 'failed';
      startedAt?: string;
      finishedAt?: string;
      log?: string;
      error?: EnvironmentImageError;
    },
  ): Promise<void> {
    const now = new Date(this.clock.nowMs()).toISOString();
    return this.reports.report({
      ...requester,
      packages: set,
      status: state.status,
      startedAt: state.startedAt ?? now,
      finishedAt: state.status === 'building' ? null : (state.finishedAt ?? now),
      error: state.error ? { message: state.error.message, package: state.error.failedPackage } : null,
      log: state.log ?? '',
    });
  }
}

async function readLog(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}
