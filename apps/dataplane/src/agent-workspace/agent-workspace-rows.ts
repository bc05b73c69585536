import { Injectable } from '@nestjs/common';
import {
  AGENT_WORKSPACE_MAX_FILE_BYTES,
  type AgentWorkspaceChange,
  type ApiWorkspaceEntry,
} from '@agentry/contracts';
import { agentWorkspaceRoot, epochStat, PostgresWorkspaceFs, type WorkspaceFs } from '@agentry/workspace';
import { SqlPool } from '../sql/sql-pool.js';

/**
 * The agent-workspace API's writes, made on control's request: control owns the rules (access, paths, the
 * total size), the dataplane the rows, in the same table and AGENT-scope root its turns read and write.
 */
@Injectable()
export class AgentWorkspaceRows {
  constructor(private readonly sql: SqlPool) {}

  async apply(tenantId: string, agentId: string, changes: AgentWorkspaceChange[]) {
    const fs = new PostgresWorkspaceFs({
      sql: this.sql.pool,
      table: 'workspace_files',
      tenantId,
      root: agentWorkspaceRoot(tenantId, agentId),
      maxFileBytes: AGENT_WORKSPACE_MAX_FILE_BYTES,
    });
    const entries: (ApiWorkspaceEntry | null)[] = [];
    for (const change of changes) entries.push(await applyOne(fs, change));
    return { entries };
  }
}

async function applyOne(fs: WorkspaceFs, change: AgentWorkspaceChange): Promise<ApiWorkspaceEntry | null> {
  if (change.op === 'write') return epochStat(await fs.writeText(change.path, change.content));
  if (change.op === 'delete') {
    await fs.delete(change.path, { recursive: change.recursive });
    return null;
  }
  await fs.move(change.from, change.to);
  return epochStat((await fs.stat(change.to))!);
}
