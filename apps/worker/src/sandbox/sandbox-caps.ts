import { existsSync } from 'node:fs';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
import type { SandboxLimits } from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { CgroupV1Sessions } from './cgroups/cgroup-v1.js';
import { CgroupV2Sessions } from './cgroups/cgroup-v2.js';
import { configuredHierarchy } from './cgroups/cgroup-hierarchy.js';
import type { SessionCgroup, SessionCgroupFactory } from './cgroups/session-cgroup.js';
import { missingHandsPackages } from './hands-prerequisites.js';
import { canMountWorkspaceImages } from './workspace-quota.js';
import { WorkspaceImagePool } from './workspace-image-pool.js';

/**
 * How this worker caps each session's sandbox: memory, processes and CPU through a cgroup per session
 * where the host delegates one (v1 or v2), rlimits per command otherwise, and the workspace's disk through
 * a quota'd filesystem image where the worker may mount one (blank ones made ahead, in a pool). What it
 * can enforce is logged at start.
 */
@Injectable()
export class SandboxCaps implements OnModuleInit, OnModuleDestroy {
  private factory: SessionCgroupFactory | null = null;
  private ready: Promise<void> | undefined;
  /** The blank workspace images of this worker; null without a quota. */
  workspaceImages: WorkspaceImagePool | null = null;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const missing of missingHandsPackages(this.config))
      this.logger.error(missing, `the Hands need the system package ${missing.package}: ${missing.effect}`);
    await this.prepare();
    const enforced = this.factory?.enforced ?? { memory: false, processes: false, cpu: false };
    const how = (cgroup: boolean, fallback: string) => (cgroup ? 'cgroup' : fallback);
    this.logger.info(
      {
        memory: how(enforced.memory, 'RLIMIT_DATA per process'),
        processes: how(enforced.processes, 'RLIMIT_NPROC per call'),
        cpu: how(enforced.cpu, 'RLIMIT_CPU per process'),
        disk: this.workspaceImages
          ? 'workspace image'
          : 'RLIMIT_FSIZE per file only (no quota: not root or no loop devices)',
      },
      'sandbox limits this worker enforces',
    );
  }

  /** Finds and readies the cgroup hierarchy once (also for callers that are not Nest modules). */
  prepare(): Promise<void> {
    this.ready ??= (async () => {
      if (this.config.AGENTRY_SANDBOX_DISK_BYTES > 0 && canMountWorkspaceImages()) {
        const pool = new WorkspaceImagePool(
          this.config.AGENTRY_WORKDIR_ROOT,
          this.config.AGENTRY_SANDBOX_DISK_BYTES,
          this.config.AGENTRY_SANDBOX_WORKSPACE_IMAGES_READY,
          (err: unknown) => this.logger.warn({ err }, 'a blank workspace image could not be made ahead'),
        );
        // Without its directory the pool still works: each open makes its image on the spot.
        await pool
          .start()
          .catch((err: unknown) => this.logger.warn({ err }, 'the workspace image pool did not start'));
        this.workspaceImages = pool;
      }
      const hierarchy = configuredHierarchy(this.config.AGENTRY_SANDBOX_CGROUP, existsSync);
      if (!hierarchy) return;
      const caps = {
        memoryBytes: this.config.AGENTRY_SANDBOX_MEMORY_BYTES,
        processes: this.config.AGENTRY_SANDBOX_PROCESSES,
        cpus: this.config.AGENTRY_SANDBOX_CPUS,
      };
      const factory =
        hierarchy.version === 2
          ? new CgroupV2Sessions(hierarchy.dir, caps)
          : new CgroupV1Sessions(hierarchy.dirs, caps);
      const usable = await factory.prepare().catch((err: unknown) => {
        this.logger.warn({ err }, 'the cgroup hierarchy could not be prepared for sandboxes');
        return false;
      });
      if (usable) this.factory = factory;
    })();
    return this.ready;
  }

  async onModuleDestroy(): Promise<void> {
    await this.workspaceImages?.stop();
  }

  async cgroupFor(name: string): Promise<SessionCgroup | null> {
    await this.prepare();
    return this.factory?.create(name) ?? null;
  }

  /** rlimits of every command: the per-process ones always, the fallbacks of caps no cgroup enforces. */
  rlimits(): SandboxLimits {
    const enforced = this.factory?.enforced;
    const c = this.config;
    return {
      cpuSeconds: c.AGENTRY_SANDBOX_CPU_SECONDS,
      fileSizeBytes: c.AGENTRY_SANDBOX_FILE_SIZE_BYTES,
      openFiles: 1024,
      ...(c.AGENTRY_SANDBOX_ADDRESS_SPACE_BYTES
        ? { memoryBytes: c.AGENTRY_SANDBOX_ADDRESS_SPACE_BYTES }
        : {}),
      ...(enforced?.processes ? {} : { processes: c.AGENTRY_SANDBOX_PROCESSES }),
      ...(enforced?.memory ? {} : { dataBytes: c.AGENTRY_SANDBOX_MEMORY_BYTES }),
    };
  }
}
