import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createSqlPool } from '@agentry/db';
import { PostgresWorkspaceFs, scopeRootKey, type WorkspaceFs } from '@agentry/workspace';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';

/**
 * The shared store the Brain reads memory, skills, knowledge and transcripts from, whatever the
 * environment: Postgres rows, so any replica sees the same files without a shared disk.
 */
@Injectable()
export class SharedWorkspaces implements OnApplicationShutdown {
  private readonly pool;

  constructor(@Inject(DATAPLANE_CONFIG) config: DataplaneEnv) {
    this.pool = createSqlPool(config.DATABASE_URL);
  }

  /** The agent's workspace (AGENT scope): shared by its sessions, as the agent's memory is. */
  forAgent(context: { tenantId: string; agentId: string; sessionId: string }): WorkspaceFs {
    return new PostgresWorkspaceFs({ sql: this.pool, tenantId: context.tenantId, root: scopeRootKey('AGENT', context) });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
