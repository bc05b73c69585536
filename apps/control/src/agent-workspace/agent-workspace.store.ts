import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AGENT_WORKSPACE_MAX_FILE_BYTES } from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import { agentWorkspaceRoot, PostgresWorkspaceFs, type WorkspaceFs } from '@agentry/workspace';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';

/**
 * The agent's shared workspace rows, addressed exactly as the dataplane mounts them for a turn
 * (same table, tenant and AGENT-scope root), so a file written here is the file the turn reads.
 */
@Injectable()
export class AgentWorkspaceStore implements OnApplicationShutdown {
  private readonly pool;

  constructor(@Inject(CONTROL_CONFIG) config: ControlEnv) {
    this.pool = createSqlPool(config.DATABASE_URL, 3);
  }

  forAgent(tenantId: string, agentId: string): WorkspaceFs {
    return new PostgresWorkspaceFs({
      sql: this.pool,
      table: 'workspace_files',
      tenantId,
      root: agentWorkspaceRoot(tenantId, agentId),
      maxFileBytes: AGENT_WORKSPACE_MAX_FILE_BYTES,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
