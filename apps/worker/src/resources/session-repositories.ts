import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { SessionResourceSubjects, type SandboxNetworking, type SessionErrorObject } from '@agentry/contracts';
import { WORKSPACE_MOUNT } from '@agentry/harness';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { decideEgress } from '../sandbox/egress-policy.js';
import { cloneFailure, cloneRepository } from './git-clone.js';

const CLONE_TIMEOUT_MS = 120_000;

/**
 * A session's `github_repository` resources, cloned into its workspace the first time this worker runs
 * a call of the session. A repository already in the workspace (restored from the durable copy, or
 * cloned before) is left as the agent left it. One that cannot be cloned is reported once per binding
 * (as a `session.error` of the turn) and not tried again until the session moves to a new binding.
 */
@Injectable()
export class SessionRepositories {
  private readonly prepared = new Map<string, Promise<SessionErrorObject[]>>();

  constructor(
    private readonly rpc: RpcClient,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Idempotent per session and binding on this worker (a new binding may have restored an older workspace).
   * Resolves, for the first call only, to what could not be cloned; a failure to read the resources is retried.
   */
  async ensure(
    tenantId: string,
    sessionId: string,
    workspaceDir: string,
    networking: SandboxNetworking,
    epoch = 0,
  ): Promise<SessionErrorObject[]> {
    const key = `${tenantId}/${sessionId}/${epoch}`;
    const pending = this.prepared.get(key);
    if (pending) {
      await pending;
      return [];
    }
    const started = this.cloneMissing(tenantId, sessionId, workspaceDir, networking);
    this.prepared.set(key, started);
    started.catch(() => this.prepared.delete(key));
    return started;
  }

  private async cloneMissing(
    tenantId: string,
    sessionId: string,
    workspaceDir: string,
    networking: SandboxNetworking,
  ): Promise<SessionErrorObject[]> {
    const { resources } = await this.rpc.request(SessionResourceSubjects.resolve, { tenantId, sessionId });
    const errors: SessionErrorObject[] = [];
    for (const { resource, authorization_token: token } of resources) {
      if (resource.type !== 'github_repository') continue;
      const dir = hostPathOf(workspaceDir, resource.mount_path);
      if (!dir) {
        this.logger.warn(
          { sessionId, resource: resource.id, mountPath: resource.mount_path },
          'repository mount path is outside the workspace; not cloned',
        );
        continue;
      }
      if (existsSync(dir)) continue;
      const url = new URL(resource.url);
      const port = Number(url.port) || (url.protocol === 'http:' ? 80 : 443);
      const decision = await decideEgress(url.hostname, port, {
        networking,
        privateAllowed: this.config.AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED,
      });
      if ('refusal' in decision) {
        this.logger.warn(
          { sessionId, resource: resource.id, why: decision.refusal },
          'repository not cloned: its host is not reachable from this environment',
        );
        errors.push(
          cloneError(
            resource.url,
            resource.mount_path,
            `its host is not reachable from this environment (${decision.refusal})`,
          ),
        );
        continue;
      }
      try {
        await mkdir(dirname(dir), { recursive: true });
        await cloneRepository({
          url: resource.url,
          token,
          checkout: resource.checkout,
          dir,
          timeoutMs: CLONE_TIMEOUT_MS,
        });
        this.logger.info(
          { sessionId, resource: resource.id, mountPath: resource.mount_path },
          'repository cloned into the session workspace',
        );
      } catch (error) {
        const why = cloneFailure(error, token);
        this.logger.warn({ sessionId, resource: resource.id, why }, 'repository clone failed');
        errors.push(cloneError(resource.url, resource.mount_path, why));
      }
    }
    return errors;
  }
}

/** A `session.error` for a repository left out of the workspace; `why` is already free of the token. */
function cloneError(url: string, mountPath: string, why: string): SessionErrorObject {
  return {
    type: 'repository_clone_error',
    message: `The repository ${url} could not be cloned into ${mountPath}: ${why}`,
    retry_status: { type: 'terminal' },
    repository_url: url,
  };
}

/** `/workspace/repo` → `<workspaceDir>/repo`; null for a path outside the workspace mount. */
function hostPathOf(workspaceDir: string, mountPath: string): string | null {
  if (!mountPath.startsWith(`${WORKSPACE_MOUNT}/`)) return null;
  const rest = mountPath.slice(WORKSPACE_MOUNT.length + 1);
  if (!rest || rest.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  return join(workspaceDir, rest);
}
