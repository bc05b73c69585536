import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AgentWorkspaceRowSubjects, type Actor, type AgentWorkspaceChange } from '@agentry/contracts';
import type { ApiWorkspaceEntry } from '@agentry/contracts/api';
import { createSqlPool } from '@agentry/db';
import { RpcClient } from '@agentry/platform';
import { agentWorkspaceRoot, PostgresWorkspaceFs, type WorkspaceFs } from '@agentry/workspace';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';

/**
 * The agent's shared workspace rows, addressed exactly as the dataplane mounts them for a turn (same
 * table, tenant and AGENT-scope root), so a file written here is the file the turn reads. Control reads
 * them directly; their owner, the dataplane, writes them on control's request.
 */
@Injectable()
export class AgentWorkspaceStore implements OnApplicationShutdown {
  private readonly pool;

  constructor(
    @Inject(CONTROL_CONFIG) config: ControlEnv,
    private readonly rpc: RpcClient,
  ) {
    this.pool = createSqlPool(config.DATABASE_URL, 3);
  }

  /** The agent's files as they are now; every write through it is refused (READ_ONLY). */
  forAgent(tenantId: string, agentId: string): WorkspaceFs {
    return new PostgresWorkspaceFs({
      sql: this.pool,
      table: 'workspace_files',
      tenantId,
      root: agentWorkspaceRoot(tenantId, agentId),
      readOnly: true,
    });
  }

  /** Has the dataplane apply `changes` in order; one entry per change (`null` for a delete). */
  async apply(
    actor: Actor,
    agentId: string,
    changes: AgentWorkspaceChange[],
  ): Promise<(ApiWorkspaceEntry | null)[]> {
    const reply = await this.rpc.request(AgentWorkspaceRowSubjects.apply, { actor, agentId, changes });
    return reply.entries;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
