import { Injectable } from '@nestjs/common';
import { AppError, type Actor, type AgentWorkspaceChange } from '@agentry/contracts';
import type { ApiWorkspaceEntry } from '@agentry/contracts/api';
import type { WorkspaceFs } from '@agentry/workspace';
import { AuditLogService } from '../audit/audit-log.service.js';
import { AgentSharesService } from '../tenancy/agent-shares.service.js';
import { AgentWorkspaceStore } from './agent-workspace.store.js';

/** An agent's workspace opened for a change: read it to check the change, then apply it. */
export interface AgentWorkspaceEditor {
  /** The files as they are now (read-only). */
  readonly fs: WorkspaceFs;
  /** Applies the changes in order through the dataplane; one entry per change (`null` for a delete). */
  apply(...changes: AgentWorkspaceChange[]): Promise<(ApiWorkspaceEntry | null)[]>;
}

/**
 * Opens an agent's workspace for an actor under the one agent access rule: whoever reaches the agent
 * reads its files; whoever may edit it (namespace members who are not viewers, EDIT shares) writes them.
 * An agent the actor cannot reach is reported as not found.
 */
@Injectable()
export class AgentWorkspaceAccess {
  constructor(
    private readonly shares: AgentSharesService,
    private readonly store: AgentWorkspaceStore,
    private readonly audit: AuditLogService,
  ) {}

  async forRead(actor: Actor, agentId: string): Promise<WorkspaceFs> {
    await this.reach(actor, agentId);
    return this.store.forAgent(actor.tenantId, agentId);
  }

  async forWrite(actor: Actor, agentId: string): Promise<AgentWorkspaceEditor> {
    const reached = await this.reach(actor, agentId);
    if (!reached.grant.canEdit)
      throw new AppError('PERMISSION_DENIED', `You may read agent ${agentId} but not change its workspace`);
    if (reached.agent.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Agent ${agentId} is archived; its workspace is read-only`);
    return {
      fs: this.store.forAgent(actor.tenantId, agentId),
      apply: (...changes) => this.store.apply(actor, agentId, changes),
    };
  }

  /** Records a workspace change against the agent; never carries file contents. */
  recordWrite(
    actor: Actor,
    agentId: string,
    action: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(actor, {
      action,
      resourceType: 'agent_workspace',
      resourceId: agentId,
      details,
    });
  }

  private async reach(actor: Actor, agentId: string) {
    const reached = await this.shares.reach(actor, agentId);
    if (!reached) throw new AppError('NOT_FOUND', `Agent ${agentId} not found`);
    return reached;
  }
}
