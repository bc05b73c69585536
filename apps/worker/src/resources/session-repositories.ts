import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { SessionResourceSubjects, type SandboxNetworking } from '@agentry/contracts';
import { WORKSPACE_MOUNT } from '@agentry/harness';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { decideEgress } from '../sandbox/egress-policy.js';
import { cloneFailure, cloneRepository } from './git-clone.js';

const CLONE_TIMEOUT_MS = 120_000;

/**
 * A session's `github_repository` resources, cloned into its workspace the first time this worker runs
 * a call of the session. A repository already in the workspace (restored from the durable copy, or
 * cloned before) is left as the agent left it.
 */
@Injectable()
export class SessionRepositories {
  private readonly prepared = new Map<string, Promise<void>>();

  constructor(
    private readonly rpc: RpcClient,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Idempotent per session and binding on this worker (a new binding may have restored an older workspace);
   * a failed clone is logged and retried by the next call.
   */
  ensure(tenantId: string, sessionId: string, workspaceDir: string, networking: SandboxNetworking, epoch = 0): Promise<void> {
    const key = `${tenantId}/${sessionId}/${epoch}`;
    let pending = this.prepared.get(key);
    if (!pending) {
      pending = this.cloneMissing(tenantId, sessionId, workspaceDir, networking);
      this.prepared.set(key, pending);
      pending.catch(() => this.prepared.delete(key));
    }
    return pending;
  }

  private async cloneMissing(tenantId: string, sessionId: string, workspaceDir: string, networking: SandboxNetworking): Promise<void> {
    const { resources } = await this.rpc.request(SessionResourceSubjects.resolve, { tenantId, sessionId });
    let failed = false;
    for (const { resource, authorization_token: token } of resources) {
      if (resource.type !== 'github_repository') continue;
      const dir = hostPathOf(workspaceDir, resource.mount_path);
      if (!dir) {
        this.logger.warn({ sessionId, resource: resource.id, mountPath: resource.mount_path }, 'repository mount path is outside the workspace; not cloned');
        continue;
      }
      if (existsSync(dir)) continue;
      const url = new URL(resource.url);
      const port = Number(url.port) || (url.protocol === 'http:' ? 80 : 443);
      const decision = await decideEgress(url.hostname, port, { networking, privateAllowed: this.config.AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED });
      if ('refusal' in decision) {
        this.logger.warn({ sessionId, resource: resource.id, why: decision.refusal }, 'repository not cloned: its host is not reachable from this environment');
        continue;
      }
      try {
        await mkdir(dirname(dir), { recursive: true });
        await cloneRepository({ url: resource.url, token, checkout: resource.checkout, dir, timeoutMs: CLONE_TIMEOUT_MS });
        this.logger.info({ sessionId, resource: resource.id, mountPath: resource.mount_path }, 'repository cloned into the session workspace');
      } catch (error) {
        failed = true;
        this.logger.warn({ sessionId, resource: resource.id, why: cloneFailure(error, token) }, 'repository clone failed');
      }
    }
    if (failed) throw new Error('a repository could not be cloned');
  }
}

/** `/workspace/repo` → `<workspaceDir>/repo`; null for a path outside the workspace mount. */
function hostPathOf(workspaceDir: string, mountPath: string): string | null {
  if (!mountPath.startsWith(`${WORKSPACE_MOUNT}/`)) return null;
  const rest = mountPath.slice(WORKSPACE_MOUNT.length + 1);
  if (!rest || rest.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  return join(workspaceDir, rest);
}
