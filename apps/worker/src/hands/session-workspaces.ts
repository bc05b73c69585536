import { Inject, Injectable } from '@nestjs/common';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalWorkspaceFs, type WorkspaceFs } from '@agentry/workspace';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** One workdir per (tenant, session) on this node; every path inside goes through the workspace guard. */
@Injectable()
export class SessionWorkspaces {
  constructor(@Inject(WORKER_CONFIG) private readonly config: WorkerEnv) {}

  rootOf(tenantId: string, sessionId: string): string {
    if (!SAFE_ID.test(tenantId) || !SAFE_ID.test(sessionId)) throw new Error('invalid tenant or session id');
    return join(this.config.AGENTRY_WORKDIR_ROOT, tenantId, sessionId);
  }

  async open(tenantId: string, sessionId: string): Promise<WorkspaceFs> {
    const root = this.rootOf(tenantId, sessionId);
    await mkdir(root, { recursive: true });
    return new LocalWorkspaceFs({ root });
  }
}
