import { Injectable } from '@nestjs/common';
import { PostgresWorkspaceFs, scopeRootKey, type WorkspaceFs } from '@agentry/workspace';
import { TURN_PRELUDE_READS } from '@agentry/harness';
import { SqlPool } from '../sql/sql-pool.js';

/**
 * The shared store the Brain reads memory, skills, knowledge and transcripts from, whatever the
 * environment: Postgres rows, so any replica sees the same files without a shared disk.
 */
@Injectable()
export class SharedWorkspaces {
  constructor(private readonly sql: SqlPool) {}

  /** The agent's workspace (AGENT scope): shared by its sessions, as the agent's memory is. */
  forAgent(context: { tenantId: string; agentId: string; sessionId: string }): WorkspaceFs {
    return new PostgresWorkspaceFs({
      sql: this.sql.pool,
      table: 'workspace_files',
      tenantId: context.tenantId,
      root: scopeRootKey('AGENT', context),
    });
  }

  /**
   * The agent's workspace with what a turn's prelude reads already fetched, in one round trip. The read
   * goes through the pickup lane: a plain turn shows `running` only once its first model call starts,
   * which waits for it.
   */
  async forAgentTurn(context: {
    tenantId: string;
    agentId: string;
    sessionId: string;
  }): Promise<WorkspaceFs> {
    const workspace = new PostgresWorkspaceFs({
      sql: this.sql.pool,
      table: 'workspace_files',
      tenantId: context.tenantId,
      root: scopeRootKey('AGENT', context),
    });
    await workspace.readAhead(TURN_PRELUDE_READS, this.sql.poolOf('pickup'));
    return workspace;
  }

  /** One session's own files (SESSION scope): what a `remote` session's file tools read and write. */
  forSession(context: { tenantId: string; agentId: string; sessionId: string }): WorkspaceFs {
    return new PostgresWorkspaceFs({
      sql: this.sql.pool,
      table: 'workspace_files',
      tenantId: context.tenantId,
      root: scopeRootKey('SESSION', context),
    });
  }
}
